/**
 * GET /v1/common/menu2 builds the menus from the route records in contracts, so that the dashboard
 * (which builds the same menus itself when dynamic menus are off) and the master cannot disagree.
 */
export { buildMenus, type MenuViewer } from '@rampart/contracts';
