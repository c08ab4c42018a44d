/** What the host hands link cards: whether a page may be on this machine's network (tests). */

export interface LinkPreviewSettings {
  /** LINK_PREVIEW_ALLOW_PRIVATE=1: loopback and private addresses may be fetched (tests only). */
  allowPrivate: boolean;
}

export const DEFAULT_LINK_PREVIEW_SETTINGS: LinkPreviewSettings = { allowPrivate: false };

declare module '../../context.types.js' {
  interface HandedIn {
    /** Link cards' fetch rules; absent: public addresses only. */
    linkPreviews: LinkPreviewSettings;
  }
}
