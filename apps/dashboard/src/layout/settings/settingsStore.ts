import { create } from 'zustand';
import { WATERMARK } from '../watermark/watermark.ts';
import { DEFAULT_LAYOUT_SETTINGS, type LayoutSettings, parseSettings } from './layoutSettings.ts';
import { readStoredSettings, type StoredSettings, writeStoredSettings } from './settingsStorage.ts';

interface SettingsState extends StoredSettings {
  set: <K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]) => void;
  setWatermark: (show: boolean) => void;
  reset: () => void;
}

const restore = (): StoredSettings => {
  const stored = readStoredSettings();
  const record = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  return {
    layout: parseSettings(record.layout),
    watermark: typeof record.watermark === 'boolean' ? record.watermark : WATERMARK.show,
  };
};

/** The console's layout settings: restored on load, saved on every change. */
export const createSettingsStore = () => {
  const store = create<SettingsState>((set) => ({
    ...restore(),
    set: (key, value) => set(({ layout }) => ({ layout: { ...layout, [key]: value } })),
    setWatermark: (watermark) => set({ watermark }),
    reset: () => set({ layout: { ...DEFAULT_LAYOUT_SETTINGS }, watermark: WATERMARK.show }),
  }));
  store.subscribe(({ layout, watermark }) => writeStoredSettings({ layout, watermark }));
  return store;
};

export const useSettings = createSettingsStore();
