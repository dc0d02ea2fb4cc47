import { lazy, Suspense } from 'react';

// The panel and its tables load when an editor opens, not with the page that lists the rules.
const load = () => import('./EditorPreviews.tsx');
const LoadedAclPreview = lazy(async () => ({ default: (await load()).AclPreview }));
const LoadedMatchPreview = lazy(async () => ({ default: (await load()).MatchPreview }));
const LoadedGroupPreview = lazy(async () => ({ default: (await load()).GroupPreview }));

/** "Preview on recent traffic" for the site's ACL, inside the protection section's form. */
export const AclPreview = ({ siteId }: { siteId: number }) => (
  <Suspense fallback={null}>
    <LoadedAclPreview siteId={siteId} />
  </Suspense>
);

/** The preview of a CC match, inside its drawer's form; `owner` decides which filters it may use. */
export const MatchPreview = ({ owner }: { owner: number }) => (
  <Suspense fallback={null}>
    <LoadedMatchPreview owner={owner} />
  </Suspense>
);

/** The preview of a rule group, inside its drawer's form. */
export const GroupPreview = () => (
  <Suspense fallback={null}>
    <LoadedGroupPreview />
  </Suspense>
);
