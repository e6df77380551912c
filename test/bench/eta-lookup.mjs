#!/usr/bin/env node
/** Bundles and runs test/bench/eta-lookup.ts (see there). */
import {bundleAndRun} from './bundle.mjs';

await bundleAndRun('eta-lookup');
