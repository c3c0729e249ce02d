// Under the built-in emulator (npm start offline) the data is a simulated market: /docs and /chart
// say so at the top of the page, as every answer does (`simulated: true`, X-Data-Simulated), so
// nobody takes a chart or an example for real quotes. /v1/health names the upstream mode.
fetch('/v1/health')
  .then((res) => res.json())
  .then((health) => {
    if (health.upstream !== 'emulator') return
    const banner = document.createElement('p')
    banner.id = 'simulated-banner'
    banner.setAttribute('role', 'note')
    banner.textContent = 'Simulated market: this service runs on its built-in emulator. Every number here is simulated, not a real quote.'
    banner.style.cssText = 'margin:0;padding:8px 12px;background:#fff4ce;color:#5c4400;font:14px/1.4 system-ui,sans-serif;border-bottom:1px solid #e0c36c'
    document.body.prepend(banner)
  })
  .catch(() => {})
