// Apart from lib/snoozes.ts, so the question page's part in the browser can offer them without the database.
/** How long a question can be snoozed for, as the question page offers it. */
export const SNOOZE_CHOICES = {
  "1h": { label: "For an hour", ms: 60 * 60 * 1000 },
  "3h": { label: "For 3 hours", ms: 3 * 60 * 60 * 1000 },
  "1d": { label: "For a day", ms: 24 * 60 * 60 * 1000 },
  "3d": { label: "For 3 days", ms: 3 * 24 * 60 * 60 * 1000 },
  "1w": { label: "For a week", ms: 7 * 24 * 60 * 60 * 1000 },
} as const;
export type SnoozeChoice = keyof typeof SNOOZE_CHOICES;
export const SNOOZE_CHOICE_KEYS = Object.keys(SNOOZE_CHOICES) as [SnoozeChoice, ...SnoozeChoice[]];
