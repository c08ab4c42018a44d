/** Whether the app is online (lib/connectivity: the browser's word and whether requests are answered). */
import { useSyncExternalStore } from 'react';
import { isOnline, subscribeConnectivity } from '../lib/connectivity';

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeConnectivity, isOnline, () => true);
}
