import { lazy, Suspense } from 'react';
import { useNotices } from './notices-api';

// The list (antd Card, List, Tag, the markdown renderer, the support texts) loads only when there is something to show.
const AnnouncementsList = lazy(() => import('./announcements-list'));

/** The operator's announcements on the seller's /dashboard (nothing when there are none); each can be acknowledged. */
export function AnnouncementsCard() {
  const notices = useNotices();
  if (!notices.data?.length) return null;
  return (
    <Suspense fallback={null}>
      <AnnouncementsList notices={notices.data} />
    </Suspense>
  );
}
