/**
 * The layers of src/, checked by `npm run lint:deps` (part of `npm test`); a violation fails with
 * the rule's name. From the top down:
 *
 *   app.ts → routes/ → features/, services/, jobs/ → channels/, store/ → domain/, data/, runtime/
 *
 * http/ and access/ are the request pipeline beside the routes; the emulator stands for the
 * upstreams and reads the domain, never our own clients of them. clients/typescript, the typed
 * client generated from /openapi.json, stands apart from src/.
 */
module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'No import cycles, type imports included.', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure',
      comment: 'domain/ is pure logic: no HTTP, no access tiers, no I/O layers. It returns issues; routes turn them into 422s.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/(http|access|channels|store|routes|services|jobs|emulator|features|runtime)/' },
    },
    {
      name: 'runtime-is-the-floor',
      comment: 'runtime/ (the request scope) sits below every layer that does I/O.',
      severity: 'error',
      from: { path: '^src/runtime/' },
      to: { path: '^src/(?!runtime/)' },
    },
    {
      name: 'channels-take-a-narrow-context',
      comment: 'An upstream client gets a ChannelContext (fetch, timeout), never Services, the store or HTTP.',
      severity: 'error',
      from: { path: '^src/channels/' },
      to: { path: '^src/(http|access|routes|services|jobs|features|store)/|^src/(services|app)\\.ts$' },
    },
    {
      name: 'store-below-services',
      comment: 'store/ reads and writes R2 and KV objects; it knows nothing of requests or routes.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/(http|access|routes|services|jobs|features)/' },
    },
    {
      name: 'services-below-features',
      comment: 'services/ (failover fetches, shared answers, the reference cache) serve features and routes, not the other way round.',
      severity: 'error',
      from: { path: '^src/services/' },
      to: { path: '^src/(routes|features|jobs)/' },
    },
    {
      name: 'emulator-not-channels',
      comment: 'The emulator speaks the upstreams\' formats from its own model; reading our clients would test them against themselves.',
      severity: 'error',
      from: { path: '^src/emulator/' },
      to: { path: '^src/channels/' },
    },
    {
      name: 'only-app-imports-routes',
      comment: 'A route is registered by app.ts; what two modules share lives outside routes/.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/app\\.ts$', '^src/routes/'] },
      to: { path: '^src/routes/' },
    },
    {
      name: 'routes-get-data-through-services',
      comment:
        'A route gets its data through services.market, services.reference or services.store (src/services/index.ts): it imports ' +
        'no store module and none of the views behind the facades. Types and R2 key names excepted (channels/: routes-not-channels).',
      severity: 'error',
      from: { path: '^src/routes/' },
      to: {
        path: '^src/store/|^src/services/(bars|live-quotes|market-breadth|quote-series|turnover-bars|shared-answers|market-deps)\\.ts$',
        pathNot: '^src/store/keys\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'routes-not-channels',
      comment:
        'A route says what it asks for (key, chain, stale class) and gets it through services/: the facades run the Asks of the data-family modules ' +
        '(src/services/dividends.ts, …), which alone know the channels\' clients. No module of channels/ is imported by a route, not even a type.',
      severity: 'error',
      from: { path: '^src/routes/' },
      to: { path: '^src/channels/' },
    },
    {
      name: 'no-route-imports-a-route',
      comment: 'Route files import only routes/shared/ (schemas and rows two routes share), never another route.',
      severity: 'error',
      from: { path: '^src/routes/' },
      to: { path: '^src/routes/[^/]+$' },
    },
    {
      name: 'client-stands-alone',
      comment: 'clients/typescript is a package of its own: it knows the API only through its generated schema.d.ts, and needs nothing from npm but openapi-fetch.',
      severity: 'error',
      from: { path: '^clients/typescript/' },
      to: { path: '^(?!clients/typescript/)', pathNot: '^node_modules/openapi-fetch/' },
    },
    {
      name: 'service-not-client',
      comment: 'The service never imports the typed client, which is generated from it.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^clients/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Tests may reach across layers to set up what they check.
    exclude: { path: '\\.test\\.ts$' },
  },
}
