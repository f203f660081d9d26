/** Placeholder until the web shell (issue #3) lands: proves the build and the server's static serving. */
export function App() {
  return (
    <main style={{ fontFamily: 'sans-serif', padding: 32 }}>
      <h1>WMS</h1>
      <p>倉儲管理系統</p>
    </main>
  );
}
