import { useEffect } from 'react';
import type { Device } from '../device/useDevice.ts';
import { useSettings } from '../settings/settingsStore.ts';

/**
 * Spec §2: on a tablet the side menu starts collapsed (when the collapse button is enabled); on a
 * desktop it is expanded. Applied at start and whenever the window crosses into the other class.
 */
export const useDeviceCollapse = (device: Device, showSiderCollapse: boolean) => {
  useEffect(() => {
    const { set } = useSettings.getState();
    if (device === 'tablet' && showSiderCollapse) set('menuCollapse', true);
    if (device === 'desktop') set('menuCollapse', false);
  }, [device, showSiderCollapse]);
};
