// The page's first script: small, so that the browser paints the server's HTML (a public page comes with its rates)
// before the app's code is evaluated. A browser that has its scripts before its first frame runs them
// first, and evaluating the app keeps the main thread busy for a while: the app (boot.tsx, preloaded by index.html)
// is imported after the first frame (the frame's callback runs before the paint, the timeout after it).
import './index.css';

requestAnimationFrame(() => setTimeout(() => void import('./boot')));
