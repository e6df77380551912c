#!/usr/bin/env node
/** Bundles and runs test/bench/ingest-cost.ts (see there). */
import {bundleAndRun} from './bundle.mjs';

await bundleAndRun('ingest-cost');
