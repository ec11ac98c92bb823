// Every page: registers the service worker (js/sw.js, served as /sw.js) that keeps the pages'
// shells for opening at once and offline. Browsers without one simply do without.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
