/**
 * What planwatch should show for a namespace, computed from what the API server holds right now: every
 * Instance, OperatorVersion, ActionSet, Blueprint and Event read raw (JSON as served), fed through the
 * product's own Store and adapters, and turned into the `-o json` document. A CLI run is compared with it
 * object by object, so "the tree equals the server's final state" is checked on every field the user sees.
 */
import type {Cluster} from './cluster.js';
import type {KubeObject, ResourceKind} from '../../../source/core/kube-object.js';
import {adaptEvent} from '../../../source/model/adapt-event.js';
import type {JsonEvent, JsonObject} from '../../../source/render/json.js';
import {toJsonDocument} from '../../../source/render/json.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {Store} from '../../../source/state/store.js';

const paths: ReadonlyArray<readonly [ResourceKind, string]> = [
	['OperatorVersion', '/apis/kudo.dev/v1beta1/namespaces/NS/operatorversions'],
	['Blueprint', '/apis/cr.kanister.io/v1alpha1/namespaces/NS/blueprints'],
	['Event', '/api/v1/namespaces/NS/events'],
	['Instance', '/apis/kudo.dev/v1beta1/namespaces/NS/instances'],
	['ActionSet', '/apis/cr.kanister.io/v1alpha1/namespaces/NS/actionsets'],
];

export type ServerState = Map<ResourceKind, KubeObject[]>;

/** Every object of ours in `namespace`, raw, as the server lists it. */
export async function readServer(cluster: Cluster, namespace: string): Promise<ServerState> {
	const state: ServerState = new Map();
	for (const [kind, path] of paths) {
		const response = await cluster.request('GET', path.replace('NS', namespace));
		if (response.status !== 200) {
			throw new Error(`GET ${path.replace('NS', namespace)}: HTTP ${response.status} ${response.body.slice(0, 300)}`);
		}

		const list = response.json as {items: KubeObject[]};
		// A list's items carry no apiVersion/kind; the store needs them for events.
		const [apiVersion, kindName] = kind === 'Event' ? ['v1', 'Event'] : kind === 'Instance' || kind === 'OperatorVersion' ? ['kudo.dev/v1beta1', kind] : ['cr.kanister.io/v1alpha1', kind];
		state.set(kind, list.items.map(item => ({apiVersion, kind: kindName, ...item})));
	}

	return state;
}

/** The `-o json` objects planwatch should show for `state` (events filtered by `keepEvent`). */
export function pictureOf(state: ServerState, namespace: string, keepEvent: (event: KubeObject) => boolean = () => true): JsonObject[] {
	const store = new Store(new FakeClock());
	for (const [kind] of paths) {
		const objects = (state.get(kind) ?? []).filter(o => kind !== 'Event' || keepEvent(o));
		store.apply({type: 'replace', resource: kind, namespace, objects});
	}

	store.apply({type: 'synced'});
	return toJsonDocument(store.getSnapshot()).objects;
}

export type Comparison = {
	/** Objects compared (present on both sides). */
	readonly compared: number;
	/** One line per difference; empty when the CLI shows exactly the server's state. */
	readonly mismatches: string[];
	/** Events the CLI had not received when it exited (allowed only with `allowLateEvents`). */
	readonly lateEvents: number;
};

function eventKey(e: JsonEvent): string {
	return `${e.time ?? ''} ${e.type} ${e.reason}: ${e.message}`;
}

/** Paths where `a` and `b` differ, as readable lines. */
function differences(a: unknown, b: unknown, path: string, out: string[]): void {
	if (Object.is(a, b)) {
		return;
	}

	if (Array.isArray(a) && Array.isArray(b)) {
		if (a.length !== b.length) {
			out.push(`${path}: ${a.length} entries on screen, ${b.length} on the server\n    cli:    ${JSON.stringify(a).slice(0, 400)}\n    server: ${JSON.stringify(b).slice(0, 400)}`);
			return;
		}

		a.forEach((x, i) => {
			differences(x, b[i], `${path}[${i}]`, out);
		});
		return;
	}

	if (a && b && typeof a === 'object' && typeof b === 'object') {
		const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
		for (const key of keys) {
			// startedAt/endedAt are compared too: a run the CLI watched start takes its PlanStarted Event's time as a
			// fresh read does, once the Event is surely this run's (docs/waiting.md, "Start and end times").

			const name = (a as Record<string, unknown>)['name'] ?? (b as Record<string, unknown>)['name'];
			differences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}${typeof name === 'string' && key === 'children' ? `(${name})` : ''}.${key}`, out);
		}

		return;
	}

	out.push(`${path}: cli ${JSON.stringify(a)} ≠ server ${JSON.stringify(b)}`);
}

/**
 * Compare what the CLI showed (its final `-o json` objects) with the server's state. With `allowLateEvents`
 * (a `--wait` run exits on the final status, and Kanister records its closing event just after), the CLI may
 * lack the newest events of an object — only events no older than everything it has — and the tree is then
 * compared with the server state minus exactly those events.
 */
export function compareWithServer(cli: readonly JsonObject[], state: ServerState, namespace: string, options: {allowLateEvents?: boolean; only?: readonly string[]} = {}): Comparison {
	const mismatches: string[] = [];
	const full = pictureOf(state, namespace);
	const keyOf = (o: {kind: string; namespace: string; name: string}) => `${o.kind}/${o.namespace}/${o.name}`;
	const wanted = options.only ? full.filter(o => options.only!.includes(keyOf(o))) : full;
	const cliByKey = new Map(cli.map(o => [keyOf(o), o]));
	const serverKeys = new Set(wanted.map(o => keyOf(o)));
	for (const o of cli) {
		if (!serverKeys.has(keyOf(o))) {
			mismatches.push(`${keyOf(o)}: shown by the CLI but not on the server`);
		}
	}

	// Late events: what the server has that the CLI did not receive.
	const late = new Set<string>();
	for (const expected of wanted) {
		const shown = cliByKey.get(keyOf(expected));
		if (!shown) {
			mismatches.push(`${keyOf(expected)}: on the server but not shown by the CLI`);
			continue;
		}

		const have = (shown.events ?? []).map(e => eventKey(e));
		const want = (expected.events ?? []).map(e => eventKey(e));
		const missing = [...want];
		for (const e of have) {
			const i = missing.indexOf(e);
			if (i === -1) {
				mismatches.push(`${keyOf(expected)}: event not on the server: ${e}`);
			} else {
				missing.splice(i, 1);
			}
		}

		if (missing.length > 0) {
			const newestShown = (shown.events ?? []).map(e => e.time ?? '').sort().at(-1) ?? '';
			const early = missing.filter(e => e.split(' ')[0]! < newestShown);
			if (!options.allowLateEvents || early.length > 0) {
				mismatches.push(`${keyOf(expected)}: events lost: ${(options.allowLateEvents ? early : missing).join(' | ')}`);
			}

			for (const e of missing) {
				late.add(`${keyOf(expected)} ${e}`);
			}
		}
	}

	const picture = late.size === 0
		? full
		: pictureOf(state, namespace, raw => {
			const e = adaptEvent(raw);
			if (!e) {
				return true;
			}

			const key = `${e.involvedKind}/${e.namespace}/${e.involvedName} ${eventKey({type: e.type, reason: e.reason, message: e.message, time: e.time, count: e.count})}`;
			return !late.has(key);
		});
	let compared = 0;
	for (const expected of picture) {
		const shown = cliByKey.get(keyOf(expected));
		if (!shown || !serverKeys.has(keyOf(expected))) {
			continue;
		}

		compared++;
		const lines: string[] = [];
		differences(normalizeEvents(shown), normalizeEvents(expected), keyOf(expected), lines);
		mismatches.push(...lines);
	}

	return {compared, mismatches, lateEvents: late.size};
}

/** Events with equal times may come in either order (watch order vs list order): compare them sorted. */
function normalizeEvents(o: JsonObject): JsonObject {
	return o.events ? {...o, events: [...o.events].sort((a, b) => eventKey(a).localeCompare(eventKey(b)))} : o;
}
