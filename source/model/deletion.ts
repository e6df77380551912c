import type {KubeObject} from '../core/kube-object.js';
import {isoTime, list, record} from './read-raw.js';
import {maxNameLength, sanitizeLine} from './sanitize.js';

/** An object whose deletion has begun (metadata.deletionTimestamp): since when, and the finalizers holding it. */
export type Deletion = {readonly since?: string; readonly finalizers: readonly string[]};

/** KUDO's finalizer (pkg/apis/kudo/v1beta1/instance_types_helpers.go): removed only once `cleanup` is COMPLETE. */
export const kudoCleanupFinalizer = 'kudo.dev.instance.cleanup';

/** The object's deletion, when one has begun; at most 20 finalizers are kept. */
export function readDeletion(object: KubeObject): Deletion | undefined {
	const meta = record(object.metadata);
	if (meta['deletionTimestamp'] === undefined || meta['deletionTimestamp'] === null) {
		return undefined;
	}

	const since = isoTime(meta['deletionTimestamp']);
	const finalizers = list(meta['finalizers']).slice(0, 20).map(f => sanitizeLine(f, maxNameLength)).filter(f => f !== '');
	return {...(since ? {since} : {}), finalizers};
}

/** `{deletion}` to spread into an adapted object, or nothing. */
export function deletionOf(object: KubeObject): {deletion?: Deletion} {
	const deletion = readDeletion(object);
	return deletion ? {deletion} : {};
}
