/**
 * The raw objects as the source sent them, by context and kind: what every adaptation reads (an Instance its
 * OperatorVersion, an ActionSet its Blueprints, both their Events), and which objects read a changed one.
 */
import type {KubeObject, ResourceKind} from '../core/kube-object.js';
import {readsBlueprintsOf, runsOperatorVersion} from '../model/object-references.js';

/** `namespace/name` → the raw object, for one kind. */
export type RawByName = Map<string, KubeObject>;

/** Raw objects of one context (undefined: the run's only one), by kind. */
type RawByKind = Map<ResourceKind, RawByName>;

function rawByKind(): RawByKind {
	return new Map<ResourceKind, RawByName>([
		['Instance', new Map()],
		['OperatorVersion', new Map()],
		['ActionSet', new Map()],
		['Blueprint', new Map()],
		['Event', new Map()],
		['Pod', new Map()],
		['Deployment', new Map()],
		['StatefulSet', new Map()],
		['Job', new Map()],
	]);
}

export class RawObjects {
	/** By context: an Instance only ever reads the OperatorVersions, an ActionSet the Blueprints, of its own cluster. */
	readonly #byContext = new Map<string | undefined, RawByKind>();

	/** The objects of one kind in one context (created empty on first use). */
	of(context: string | undefined, kind: ResourceKind): RawByName {
		let byKind = this.#byContext.get(context);
		if (!byKind) {
			byKind = rawByKind();
			this.#byContext.set(context, byKind);
		}

		return byKind.get(kind)!;
	}

	/** The Instances of `context` that run this OperatorVersion. */
	*instancesRunning(context: string | undefined, operatorVersion: KubeObject): Iterable<KubeObject> {
		for (const instance of this.of(context, 'Instance').values()) {
			if (runsOperatorVersion(instance, operatorVersion)) {
				yield instance;
			}
		}
	}

	/** The ActionSets of `context` that read this Blueprint. */
	*actionSetsReading(context: string | undefined, blueprint: KubeObject): Iterable<KubeObject> {
		for (const actionSet of this.of(context, 'ActionSet').values()) {
			if (readsBlueprintsOf(actionSet, blueprint)) {
				yield actionSet;
			}
		}
	}
}
