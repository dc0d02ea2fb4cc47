const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as the value of an <input type="datetime-local"> in the browser's time zone. */
export const toLocalInput = (iso: string): string => {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** The value of a datetime-local input as an ISO instant, or undefined when empty or not a time. */
export const fromLocalInput = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};
