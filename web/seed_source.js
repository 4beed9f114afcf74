// The seed notebook's code (../shared/seed/lesson.py, or $ROOFLINE_SEED), put into the bundle by
// scripts/bundle.mjs when it builds the page; null when the build had no such file (the Notebook
// view then says so). Read nowhere else: the page makes no request for it.
/* global __SEED_NOTEBOOK__ */
export const SEED_NOTEBOOK = __SEED_NOTEBOOK__;

/** What the Notebook view says when the page was built without the seed's code. */
export const SEED_MISSING =
  "The seed's code was not bundled into this page: ../shared/seed/lesson.py was missing when " +
  'it was built (scripts/bundle.mjs said so). Rebuild with the file there, or with ROOFLINE_SEED set to its path.';
