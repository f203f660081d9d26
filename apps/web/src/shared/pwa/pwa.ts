/**
 * The installable app (PWA): registers the service worker (public/sw.js, production builds only: Vite's dev server
 * serves modules that must not be cached) and keeps the browser's install offer (`beforeinstallprompt`, Chromium
 * browsers on Android and desktop) for the "Install app" button. The offer may come before React has mounted, so it is
 * caught here, at start-up.
 */

interface TInstallPrompt extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let offer: TInstallPrompt | null = null;
const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};

export function startPwa(): void {
  if (typeof window === 'undefined') return;
  window.addEventListener('beforeinstallprompt', (e) => {
    // Keep it for our own button instead of the browser's mini bar.
    e.preventDefault();
    offer = e as TInstallPrompt;
    changed();
  });
  window.addEventListener('appinstalled', () => {
    offer = null;
    changed();
  });
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    window.addEventListener('load', () => {
      void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
    });
  }
}

/** For useSyncExternalStore: whether the browser offers to install the app now. */
export const subscribeInstallOffer = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
export const hasInstallOffer = () => offer !== null;

/** Shows the browser's install dialog; the offer can be used once. */
export async function install(): Promise<void> {
  const o = offer;
  if (!o) return;
  offer = null;
  changed();
  await o.prompt();
}
