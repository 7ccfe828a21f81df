// What the page mounts: the preflight panel (a view, e.g. at #preflight) and the offline badge.
export { PreflightPanel } from './PreflightPanel.tsx';
export { OfflineStatus } from './OfflineStatus.tsx';
