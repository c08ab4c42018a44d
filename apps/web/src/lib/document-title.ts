import { useEffect } from 'react';

export const PRODUCT_NAME = 'Cubes AI';

/** 'Cubes AI' for the home page, 'Login · Cubes AI' for the others. */
export function documentTitle(page?: string): string {
  return page ? `${page} · ${PRODUCT_NAME}` : PRODUCT_NAME;
}

export function useDocumentTitle(page?: string): void {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
