import type { UseFormRegisterReturn } from "react-hook-form";

/** One radio or checkbox with its label and, where the option has one, its description. */
export function ChoiceOption({
  type,
  id,
  value,
  label,
  description,
  checked,
  describedBy,
  invalid,
  binding,
}: {
  type: "radio" | "checkbox";
  id: string;
  value: string;
  label: string;
  description?: string;
  checked: boolean;
  describedBy: string | undefined;
  invalid: boolean;
  binding: UseFormRegisterReturn | { name: string };
}) {
  const descriptionId = description === undefined ? undefined : `${id}-description`;
  const described = [descriptionId, describedBy].filter((part) => part !== undefined).join(" ") || undefined;
  return (
    <div className="question-option">
      <input type={type} id={id} {...binding} value={value} defaultChecked={checked} aria-describedby={described} aria-invalid={invalid || undefined} />
      <label htmlFor={id}>
        {label}
        {description === undefined ? null : (
          <span id={descriptionId} className="question-option-description">
            {description}
          </span>
        )}
      </label>
    </div>
  );
}
