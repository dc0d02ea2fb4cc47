/** An SMS provider account saved in /sys/setting, every field its API needs filled in. */
export interface SmsAccount {
  provider: 'aliyun' | 'tencent';
  /** The API address; empty: the provider's public one. */
  endpoint: string;
  accessKeyId: string;
  secret: string;
  signName: string;
  templateCode: string;
  /** Tencent Cloud's SmsSdkAppId; empty for aliyun. */
  appId: string;
}

/** An SMS API's answer as JSON; a network failure or an answer that is not JSON throws. */
export async function callSmsApi(provider: string, url: URL, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    // fetch says only "fetch failed"; the reason (refused, unknown host, timeout) is its cause.
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause : error).message : 'error';
    throw new Error(`${provider} did not answer: ${reason}`);
  }
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${provider} answered HTTP ${response.status} without JSON`);
  }
}
