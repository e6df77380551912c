#!/usr/bin/env node
/** Bundles the floor app (test/bench/ink-floor-app.tsx), then bundles and runs test/bench/ink-floor.ts (see there). */
import {bundle, bundleAndRun, root} from './bundle.mjs';

await bundle('test/bench/ink-floor-app.tsx', `${root}.cache/bench/ink-floor-app.mjs`);
await bundleAndRun('ink-floor');
