import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createStore } from './store/store';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const start = () =>
  createRoot(container).render(
    <StrictMode>
      <App store={createStore()} />
    </StrictMode>,
  );

// A public page comes with its rates rendered by the server (issue 22). The app's first render keeps the main thread
// busy, and a browser that has the script before its first frame would paint only after it: the server's HTML is
// painted first (the frame's callback runs before the paint, the timeout after it), then the app draws over it.
if (container.hasChildNodes()) requestAnimationFrame(() => setTimeout(start));
else start();
