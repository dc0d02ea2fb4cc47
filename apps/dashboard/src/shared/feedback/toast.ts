/** Spec §9: messages stay 3 s. */
export const MESSAGE_SECONDS = 3;

export interface Toast {
  type: 'error' | 'success';
  text: string;
}

/** Shows one toast; the message host hands it to the provider once antd's message code has loaded. */
export type MessageApi = (toast: Toast) => void;
