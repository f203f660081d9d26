import './zod-config';

// The app is loaded only now: its modules build the contracts' schemas as they run, and zod must be configured
// first (a static import would run before this module's body).
void import('./boot').then((app) => app.start());
