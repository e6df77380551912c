import type {KanisterValues} from './kanister-values.js';

/**
 * The one plan-tree type for both operators. KUDO: plans → phases → steps; Kanister: actions → phases →
 * deferPhase. Every string here has already been through `sanitize` (adapters are the only producers).
 */

/** Normalized node state: the single status vocabulary of the whole app. */
export type NodeState = 'pending' | 'running' | 'retrying' | 'succeeded' | 'failed' | 'inactive' | 'stopped' | 'unknown';

export type NodeKind = 'plan' | 'phase' | 'step' | 'action' | 'deferPhase';

/** Result of a whole object (Instance or ActionSet). */
export type Outcome = 'running' | 'succeeded' | 'failed' | 'unknown';

export type ObjectKind = 'Instance' | 'ActionSet';

export type PlanNode = {
	/** Stable path id inside its object, e.g. `plan:deploy/phase:deploy/step:init`. Used for fold state and timers. */
	readonly id: string;
	readonly kind: NodeKind;
	/** Display name (a nameless Kanister deferPhase is labelled `deferPhase`). */
	readonly name: string;
	/** Raw status word as found in the object (`IN_PROGRESS`, `complete`, `NOT ACTIVE`, …). */
	readonly status: string;
	readonly state: NodeState;
	/**
	 * Why `state` is not what `status` alone would say (`running per progress`, `stopped`,
	 * `missing`: a plan status derived from its phases). Views show it after the raw status, in parentheses.
	 */
	readonly statusReason?: string;
	/** KUDO plan/phase strategy (`serial`, `parallel`, or whatever the OperatorVersion says). */
	readonly strategy?: string;
	/** Step/phase/plan message or error text. */
	readonly message?: string;
	/** Short extra fact drawn after the status: "always runs", "waiting for the controller to start this plan". */
	readonly note?: string;
	/** Secondary description, e.g. a Kanister action's object `statefulset postgres-test/my-release`. */
	readonly detail?: string;
	/** ISO time the object says this node was last updated (KUDO plan lastUpdatedTimestamp, Kanister lastTransitionTime). */
	readonly updatedAt?: string;
	/** ISO start/end times where the object or its events carry them (Kanister "Started/Ended Phase" events). */
	readonly startedAt?: string;
	readonly endedAt?: string;
	/** Percent complete where the object carries it (Kanister). */
	readonly percent?: number;
	/** The node the object is currently working on (active plan, running action). */
	readonly active?: boolean;
	/** Kanister phase or deferPhase: the `output` it wrote (what later phases and artifacts read), bounded. */
	readonly output?: KanisterValues;
	/**
	 * Kanister action: `status.actions[].artifacts`, what `kanctl create actionset --from` passes on. `rendered` is
	 * false while they are still the Blueprint's templates (the controller renders them once the action succeeded).
	 */
	readonly artifacts?: KanisterArtifacts;
	readonly children: readonly PlanNode[];
};

/** An action's artifacts and whether the controller has rendered them yet. */
export type KanisterArtifacts = KanisterValues & {readonly rendered: boolean};

/** Facts the wait rules need, per kind. Derived by the adapters; pure data. */
export type KudoWaitFacts = {
	readonly kind: 'Instance';
	/** spec.planExecution.planName ('' when idle). */
	readonly scheduledPlan: string;
	/** spec.planExecution.uid. */
	readonly scheduledUid: string;
	/** status.planStatus[*].uid by plan name. */
	readonly planUids: Readonly<Record<string, string>>;
	/** status.planStatus[*].status by plan name (derived from its phases when missing). */
	readonly planStatuses?: Readonly<Record<string, string>>;
	/**
	 * No plan is scheduled and which of several plans with different outcomes ran last cannot be told from what
	 * the cluster records (same-second timestamps, no Events): activePlan is then the worst of them.
	 */
	readonly undecided?: {readonly candidates: readonly string[]; readonly reason: string};
	/** planwatch cannot read this Instance (an old API version's shape): why. The wait does not succeed on it. */
	readonly unreadable?: string;
	/** Name of the active plan (CLI rule), if any plan ever ran or is scheduled. */
	readonly activePlan?: string;
	/** Raw status of the active plan. */
	readonly activeStatus?: string;
	/** Scheduled but the controller has not picked it up yet (uid mismatch or no status entry). */
	readonly queued: boolean;
};

export type KanisterWaitFacts = {
	readonly kind: 'ActionSet';
	/** status.state raw ('' when there is no status yet). */
	readonly state: string;
	/**
	 * Some deferPhase exists and is still pending (not yet run, or running: the controller never writes `running`)
	 * and may still run: its action was launched (no launch failure event names it).
	 */
	readonly deferPending: boolean;
	/** Some deferPhase is known to be running (progress.runningPhase names it, or events say so). */
	readonly deferRunning: boolean;
	/** `complete` although a core phase is still pending or running (pkg/validate rejects it): what is wrong. */
	readonly inconsistent?: string;
	/** A status Kanister's validation rejects (pkg/validate/validate.go), in its words: the controller will not act. */
	readonly rejected?: string;
	/** status.progress.runningPhase. */
	readonly runningPhase: string;
	/** status.progress.lastTransitionTime or creationTimestamp: last time the object said it made progress. */
	readonly lastProgressAt?: string;
};

export type WaitFacts = KudoWaitFacts | KanisterWaitFacts;

/** One Instance or ActionSet, adapted. */
export type PlanObject = {
	/** The kubeconfig context it was read from, only when planwatch watches several (`--context a --context b`). */
	readonly context?: string;
	readonly kind: ObjectKind;
	readonly namespace: string;
	readonly name: string;
	readonly uid?: string;
	readonly resourceVersion?: string;
	readonly createdAt?: string;
	readonly outcome: Outcome;
	/** One line a person can read during an incident. */
	readonly summary: string;
	/** KUDO: OperatorVersion name; Kanister: blueprint name(s). */
	readonly version?: string;
	/** KUDO active plan / Kanister current action. */
	readonly active?: string;
	/** Normalized state of the object as a whole (for list views). */
	readonly state: NodeState;
	/** Raw status of the object as a whole (active plan status / status.state). */
	readonly status: string;
	/** Kanister percentCompleted (float), KUDO: completed steps of the active plan as a percent. */
	readonly percent?: number;
	/** KUDO: steps done/total in the active plan. */
	readonly steps?: {readonly done: number; readonly total: number};
	/** Object-level error (Kanister status.error.message). */
	readonly error?: string;
	/** Latest update time the object carries. */
	readonly updatedAt?: string;
	readonly wait: WaitFacts;
	/** Its deletion has begun (metadata.deletionTimestamp). */
	readonly deletion?: {readonly since?: string; readonly finalizers: readonly string[]};
	/** Kanister: the ActionSet's `kanister.io/JobID` label, which KubeTask copies onto the pods it runs. */
	readonly jobId?: string;
	/** Top-level nodes: KUDO plans (all, including NOT ACTIVE ones) or Kanister actions. */
	readonly tree: readonly PlanNode[];
};

/** A core/v1 Event about a watched object, sanitized. */
export type PlanEvent = {
	readonly uid: string;
	readonly namespace: string;
	readonly involvedKind: string;
	readonly involvedName: string;
	readonly type: string;
	readonly reason: string;
	readonly message: string;
	/** ISO time of the last occurrence (lastTimestamp, eventTime or firstTimestamp). */
	readonly time?: string;
	readonly count: number;
	/** The involved object's uid, when the event names one: events of an earlier object of the same name differ. */
	readonly involvedUid?: string;
	/**
	 * The event's own resourceVersion when it is a decimal number: one store's revisions grow with every write, so
	 * of two events the greater one was written (or re-counted) later, even within one second. Digits without
	 * leading zeros (compare with `compareRevisions`).
	 */
	readonly revision?: string;
};

/** Order of two `PlanEvent.revision`s (decimal digits without leading zeros): by length, then by digits. */
export function compareRevisions(a: string, b: string): number {
	return a.length === b.length ? (a < b ? -1 : a > b ? 1 : 0) : a.length - b.length;
}

/**
 * Between a context and the rest of an object's key: a control character, which no sanitized text holds, so any
 * context name (an ARN with `:` and `/`) splits off exactly.
 */
export const contextSeparator = '\u001F';

/** What a view of no objects says (the TUI's empty list, plain's picture and log): an empty screen reads as a hang. */
export const noObjectsText = 'no KUDO Instances or Kanister ActionSets here';

/**
 * Key of an object in maps: `Kind/namespace/name`; with several contexts `<context>␟Kind/namespace/name`, so the
 * same namespace/name in two clusters are two objects.
 */
export function objectKey(
	o: {readonly kind: string; readonly namespace: string; readonly name: string; readonly context?: string},
): string {
	const key = `${o.kind}/${o.namespace}/${o.name}`;
	return o.context === undefined ? key : `${o.context}${contextSeparator}${key}`;
}

/** An object key as people read it: `dr:Instance/default/mysql` (the separator is a control character). */
export function shownObjectKey(key: string): string {
	return key.replace(contextSeparator, ':');
}

/** `default/mysql`, or `dr:default/mysql` for an object of one of several contexts. */
export function qualifiedName(o: {readonly namespace: string; readonly name: string; readonly context?: string}): string {
	const name = o.namespace ? `${o.namespace}/${o.name}` : o.name;
	return o.context === undefined ? name : `${o.context}:${name}`;
}

/** The parts of an `objectKey` (names cannot contain `/`, namespaces neither, so the split is exact). */
export function parseObjectKey(key: string): {
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
	readonly context?: string;
} {
	const at = key.indexOf(contextSeparator);
	const rest = at === -1 ? key : key.slice(at + 1);
	const [kind = '', namespace = '', ...name] = rest.split('/');
	return {kind, namespace, name: name.join('/'), ...(at === -1 ? {} : {context: key.slice(0, at)})};
}
