/** One value of a query parameter (the first, when it is given more than once), trimmed and cut to 200 characters. */
export function oneParam(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim().slice(0, 200) ?? "";
}
