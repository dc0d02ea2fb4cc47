/** Small helpers for jsdom component tests (no testing-library in this repo). */

/** Polls until `check` returns a truthy value (or stops throwing). */
export const waitFor = async <T>(check: () => T, timeoutMs = 15_000): Promise<NonNullable<T>> => {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((done) => setTimeout(done, 20));
  }
  throw lastError ?? new Error('waitFor timed out');
};

/** Types into a React-controlled input the way a user would (React listens for `input` events). */
export const typeInto = (input: HTMLInputElement, value: string): void => {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

/** The input a <label> text points at. */
export const inputByLabel = (container: ParentNode, text: string): HTMLInputElement => {
  const label = [...container.querySelectorAll('label')].find((element) => element.textContent?.trim() === text);
  const input = label?.htmlFor ? document.getElementById(label.htmlFor) : null;
  if (!(input instanceof HTMLInputElement)) throw new Error(`no input labelled ${text}`);
  return input;
};

export const buttonByText = (container: ParentNode, text: string): HTMLButtonElement => {
  const button = [...container.querySelectorAll('button')].find((element) => element.textContent?.trim() === text);
  if (!button) throw new Error(`no button ${text}`);
  return button;
};

/** What antd needs from the browser that jsdom lacks. */
export const installDomStubs = (): void => {
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
};
