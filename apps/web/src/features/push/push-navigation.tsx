/**
 * A click on a push notification focuses an open tab (pwa/service-worker.js) and posts it
 * `{ type: 'cubes:navigate', url }`: this takes the tab there through the router, without a
 * reload. Only paths on this origin are followed.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

export function isAppPath(url: unknown): url is string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}

export function PushNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (data?.type === 'cubes:navigate' && isAppPath(data.url)) navigate(data.url);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [navigate]);
  return null;
}
