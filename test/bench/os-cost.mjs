#!/usr/bin/env node
/** Bundles and runs test/bench/os-cost.ts (see there). */
import {bundleAndRun} from './bundle.mjs';

await bundleAndRun('os-cost');
