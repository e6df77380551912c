/**
 * The decisions of the cluster source, as pure functions: which collections to watch for the targets, and what
 * a collection's failure means (give up, drop a product that is not installed, go on without a supporting kind).
 */
import {exitCodes, type ExitCode} from '../core/exit-codes.js';
import type {ResourceKind} from '../core/kube-object.js';
import type {KubeFailure} from '../kube/errors.js';
import {qualifiedName, resourceTypes} from '../kube/resources.js';
import type {Target, TargetKind} from '../model/targets.js';

export type Product = 'KUDO' | 'Kanister' | 'core';

/** One list+watch to run. */
export type Collection = {
	readonly kind: ResourceKind;
	readonly product: Product;
	/** Set when this collection watches one named target. */
	readonly target?: Target;
	readonly labelSelector?: string;
	readonly fieldSelector?: string;
};

/**
 * Named targets: one collection per target (by name), plus the supporting kind of each product asked for.
 * No targets: everything of the kinds asked for (`planwatch actionsets`), or of both products when none are.
 * Events always, narrowed to the one target's name when there is one.
 */
export function collectionsToWatch(targets: readonly Target[], selector?: string, kinds: readonly TargetKind[] = []): Collection[] {
	const everything = targets.length === 0;
	const plan: Collection[] = [];
	const labelSelector = selector ? {labelSelector: selector} : {};
	const main = (kind: 'Instance' | 'ActionSet', product: Product) => {
		const named = targets.filter(t => t.kind === kind);
		for (const target of named) {
			plan.push({kind, product, target, ...labelSelector, fieldSelector: `metadata.name=${target.name}`});
		}

		const wanted = everything && (kinds.length === 0 || kinds.includes(kind));
		if (wanted) {
			plan.push({kind, product, ...labelSelector});
		}

		return wanted || named.length > 0;
	};

	if (main('Instance', 'KUDO')) {
		plan.push({kind: 'OperatorVersion', product: 'KUDO'});
	}

	if (main('ActionSet', 'Kanister')) {
		plan.push({kind: 'Blueprint', product: 'Kanister'});
	}

	const only = targets.length === 1 ? targets[0] : undefined;
	plan.push({kind: 'Event', product: 'core', ...(only ? {fieldSelector: `involvedObject.name=${only.name}`} : {})});
	return plan;
}

export type FailureVerdict =
	/** Give up now with this line and code. */
	| {readonly action: 'fatal'; readonly message: string; readonly exitCode: ExitCode}
	/** The product is not installed and nothing named needs it: stop its collections, watch the other one. */
	| {readonly action: 'drop-product'}
	/**
	 * The product's main kind may not be listed (403) while the other product may still be readable: stop its
	 * collections, watch the other one, and say what is left out (a Kanister-only user of `planwatch -A`).
	 */
	| {readonly action: 'skip-product'; readonly message: string}
	/** A supporting kind cannot be read (403): watch the targets without it, and say what is missing. */
	| {readonly action: 'missing'; readonly message: string}
	/** A supporting kind failed: give up after a moment, unless the targets' own kind fails first and says more. */
	| {readonly action: 'fatal-soon'; readonly message: string; readonly exitCode: ExitCode};

/** The exit code of a failure: a label selector the server cannot parse is bad input, not a cluster problem. */
export function exitCodeFor(failure: KubeFailure): ExitCode {
	return failure.kind === 'bad-request' ? exitCodes.usage : exitCodes.cluster;
}

/** What is known so far of the products a run watches, for the decision on the next failure. */
export type ProductStates = {
	/** Products found not installed (404 on their CRDs). */
	readonly absent: ReadonlySet<Product>;
	/** Products whose main kind may not be listed (403), with the forbidden line. */
	readonly forbidden?: ReadonlyMap<Product, string>;
	/** Products with collections in this run (default both: `planwatch actionsets` watches one). */
	readonly watched?: ReadonlySet<Product>;
};

const bothProducts: ReadonlySet<Product> = new Set<Product>(['KUDO', 'Kanister']);

/**
 * What a failed start of one collection means. `absent` (or the fuller ProductStates): the products already
 * found not installed (including this one's, if `drop-product` was decided before for another of its collections).
 * A forbidden main kind is skipped like a missing CRD while the other product may still be read; when nothing at
 * all is readable, the forbidden line is the one that explains it.
 */
export function onCollectionFailure(
	collection: Pick<Collection, 'kind' | 'product'>,
	failure: KubeFailure,
	targets: readonly Target[],
	states: ReadonlySet<Product> | ProductStates,
): FailureVerdict {
	const {absent, forbidden = new Map<Product, string>(), watched = bothProducts} = states instanceof Set
		? {absent: states}
		: states as ProductStates;
	const other: Product = collection.product === 'KUDO' ? 'Kanister' : 'KUDO';
	const otherReadable = watched.has(other) && !absent.has(other) && !forbidden.has(other);
	if (failure.kind === 'not-found' && collection.product !== 'core') {
		if (targets.some(t => resourceTypes[t.kind].product === collection.product)) {
			return {action: 'fatal', message: failure.message, exitCode: exitCodes.cluster};
		}

		const otherForbidden = forbidden.get(other);
		if (otherForbidden !== undefined) {
			// Not installed here, not readable there: the 403 is what the user can act on.
			return {action: 'fatal', message: otherForbidden, exitCode: exitCodes.cluster};
		}

		if (absent.has(other)) {
			return {
				action: 'fatal',
				message: `neither KUDO nor Kanister is installed in this cluster: no ${qualifiedName(resourceTypes.Instance)}, no ` +
					`${qualifiedName(resourceTypes.ActionSet)}`,
				exitCode: exitCodes.cluster,
			};
		}

		return {action: 'drop-product'};
	}

	if (collection.kind === 'Instance' || collection.kind === 'ActionSet') {
		if (failure.kind === 'forbidden' && targets.length === 0 && otherReadable) {
			return {action: 'skip-product', message: `${qualifiedName(resourceTypes[collection.kind])} not watched: ${failure.message}`};
		}

		return {action: 'fatal', message: failure.message, exitCode: exitCodeFor(failure)};
	}

	if (failure.kind === 'forbidden') {
		// Operators often may read their ActionSets but not Events.
		return {action: 'missing', message: `${resourceTypes[collection.kind].plural} not watched: ${failure.message}`};
	}

	return {action: 'fatal-soon', message: failure.message, exitCode: exitCodeFor(failure)};
}
