/** The dashboard is served under this path by the master (Vite `base`, router `basename`). */
export const BASE_PATH = '/dashboard/';
export const ROUTER_BASENAME = '/dashboard';
