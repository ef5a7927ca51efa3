import { isAppError } from "@/lib/errors";
import { httpStatusOf } from "@/lib/server/http-status";

/** A refusal as the HTTP edge answers it: the error's code, message, path and details, with the status of its code. */
export interface HttpRefusal {
  code: string;
  status: number;
  message: string;
  path: string | undefined;
  details: Readonly<Record<string, unknown>> | undefined;
}

/** The refusal `promise` rejects with, as the HTTP edge answers it (`httpStatusOf` its code); fails when it resolves or rejects with anything but an AppError. */
export async function httpRefusalOf(promise: Promise<unknown>): Promise<HttpRefusal> {
  const error = await promise.then(
    () => {
      throw new Error("expected a refusal, but it resolved");
    },
    (rejected: unknown) => rejected,
  );
  if (!isAppError(error)) throw error;
  return { code: error.code, status: httpStatusOf(error.code), message: error.message, path: error.path, details: error.details };
}
