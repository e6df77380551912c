/**
 * The Events about each Instance and ActionSet. Events are indexed by their own key and adapted once, so a list
 * of thousands of events costs one adaptation each, not a rescan of all events per event.
 */
import type {KubeObject} from '../core/kube-object.js';
import {adaptEvent} from '../model/adapt-event.js';
import {isoMs} from '../model/iso-time.js';
import {namespacedName} from '../model/object-references.js';
import {contextSeparator, objectKey, type PlanEvent} from '../model/plan-tree.js';

const maxEventsPerObject = 200;

export class EventIndex {
	/** objectKey → events about it, oldest first (bounded): what snapshots hand out. */
	readonly events = new Map<string, PlanEvent[]>();
	/** objectKey → event `namespace/name` → adapted event; and which object each event is about. */
	readonly #index = new Map<string, Map<string, PlanEvent>>();
	readonly #owner = new Map<string, string>();

	/**
	 * Keep the events of one object up to date after an Event changed (`present`) or went. Returns the objects
	 * whose events changed, in the order to re-adapt them: the one the event was about before, then the one now.
	 */
	index(context: string | undefined, raw: KubeObject, present: boolean): string[] {
		const eventKey = (context === undefined ? '' : context + contextSeparator) + namespacedName(raw);
		const before = this.#owner.get(eventKey);
		const e = present ? adaptEvent(raw) : undefined;
		const owner = e && (e.involvedKind === 'Instance' || e.involvedKind === 'ActionSet')
			? objectKey({kind: e.involvedKind, namespace: e.namespace, name: e.involvedName, ...(context === undefined ? {} : {context})})
			: undefined;
		const changed: string[] = [];
		if (before !== undefined && before !== owner) {
			this.#index.get(before)?.delete(eventKey);
			this.#owner.delete(eventKey);
			this.#publish(before);
			changed.push(before);
		}

		if (owner !== undefined && e) {
			let events = this.#index.get(owner);
			if (!events) {
				events = new Map();
				this.#index.set(owner, events);
			}

			events.set(eventKey, e);
			this.#owner.set(eventKey, owner);
			this.#publish(owner);
			changed.push(owner);
		}

		return changed;
	}

	/** The object's events, oldest first. */
	#publish(owner: string): void {
		const list = [...(this.#index.get(owner)?.values() ?? [])];
		list.sort((a, b) => (isoMs(a.time) ?? 0) - (isoMs(b.time) ?? 0));
		if (list.length === 0) {
			this.events.delete(owner);
			this.#index.delete(owner);
		} else {
			this.events.set(owner, list.slice(-maxEventsPerObject));
		}
	}
}
