/** Spec §9: the side menu is 256 px wide, 80 px collapsed. */
export const SIDER_WIDTH = 256;
export const SIDER_COLLAPSED_WIDTH = 80;
