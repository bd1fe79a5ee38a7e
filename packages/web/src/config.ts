/** What the server wrote into the page (`http/plugins/website.ts` in the server package). */
interface Settings {
  imageBaseUrl: string | null;
  sandbox: boolean;
}

declare global {
  interface Window {
    __SKINMARKET__?: Settings;
  }
}

export const settings: Settings = window.__SKINMARKET__ ?? { imageBaseUrl: null, sandbox: false };

/** An item's image: the catalog's icon path under `IMAGE_BASE_URL`, or none (a placeholder is drawn). */
export function imageUrl(iconUrl: string | undefined): string | null {
  if (!settings.imageBaseUrl || !iconUrl) return null;
  try {
    return settings.imageBaseUrl + new URL(iconUrl, "http://x").pathname;
  } catch {
    return null;
  }
}
