/**
 * Vitest global setup: the tests run the dependencies as the bundle ships them, patched (patches/; npm ci applies
 * them, this covers a node_modules installed without scripts). Throws, failing the run, when a patch no longer
 * applies.
 */
import {patchDependencies} from '../../scripts/patch-deps.mjs';

export default function setup(): void {
	patchDependencies();
}
