/** The page of the recharge form. */
export const BALANCE_PATH = '/account/balance';

/** The recharge page with the way back to `from` (a path of this app with its query). */
export const rechargeHref = (from: string): string =>
  from && from !== BALANCE_PATH ? `${BALANCE_PATH}?back=${encodeURIComponent(from)}` : BALANCE_PATH;

/**
 * The page a recharge returns to: `?back=` when it is a path inside this app. Anything else (another
 * site, `//host`, a scheme) is ignored, so the link can never lead away.
 */
export const backTarget = (search: string): string | undefined => {
  const back = new URLSearchParams(search).get('back');
  if (!back?.startsWith('/') || back.startsWith('//') || back.startsWith('/\\')) return undefined;
  return back === BALANCE_PATH ? undefined : back;
};
