/** Links that come from server settings (footer, agreement) open only when they are http(s). */
export const safeExternalUrl = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  try {
    const url = new URL(value, window.location.origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
};

/** A relative URL or one on this origin (images named by the server: menu icons, the logo). */
export const isSameOriginUrl = (value: string): boolean => {
  try {
    return new URL(value, window.location.origin).origin === window.location.origin;
  } catch {
    return false;
  }
};
