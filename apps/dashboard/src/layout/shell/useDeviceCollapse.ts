import { useEffect } from 'react';
import type { Device } from '../device/useDevice.ts';
import { useSettings } from '../settings/settingsStore.ts';

/**
 * Spec §2: on a tablet the side menu starts collapsed (when the collapse button is enabled); on a
 * desktop it is expanded; otherwise it stays as stored (null).
 */
export const deviceCollapse = (device: Device, showSiderCollapse: boolean): boolean | null => {
  if (device === 'tablet' && showSiderCollapse) return true;
  if (device === 'desktop') return false;
  return null;
};

/** Applies deviceCollapse at start and whenever the window crosses into the other class. */
export const useDeviceCollapse = (device: Device, showSiderCollapse: boolean) => {
  useEffect(() => {
    const collapse = deviceCollapse(device, showSiderCollapse);
    if (collapse !== null) useSettings.getState().set('menuCollapse', collapse);
  }, [device, showSiderCollapse]);
};
