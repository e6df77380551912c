import {formatDurationWords} from './format-duration.js';
import type {KanisterWaitFacts, KudoWaitFacts, PlanNode, PlanObject} from './plan-tree.js';
import {exitCodes} from '../core/exit-codes.js';
import {msSince} from './iso-time.js';
import {kudoCleanupFinalizer} from './deletion.js';

/*
 * When is a watched object done, and with which exit code? Pure: the caller passes the clock's now.
 * KUDO: queued (scheduled, not yet picked up by the controller) → wait; COMPLETE → 0; FATAL_ERROR → 1 at once (the KUDO CLI hangs there);
 * ERROR is retried, so keep waiting. Kanister: complete → 0 once no deferPhase is running or pending;
 * failed → 1 once the deferPhase has finished, never existed, cannot run (launch failure) or showed no sign of
 * starting within a grace period; complete with a core phase not complete (invalid) → 1.
 */

export type WaitRuleOptions = {
	/** Clock time in ms. */
	readonly now: number;
	/** Kanister: how long a failed ActionSet's pending deferPhase may take to show it started. */
	readonly deferGraceMs: number;
	/** No update for this long while running → `stale` (a Kanister controller restart leaves `running` forever). */
	readonly staleMs: number;
	/** `--plan NAME`: a KUDO Instance is done when this plan is (Kanister ActionSets are not concerned). */
	readonly plan?: string;
};

export type WaitVerdict =
	| {readonly done: false; readonly waitingFor: string; readonly stale?: boolean}
	| {readonly done: true; readonly exitCode: typeof exitCodes.ok | typeof exitCodes.failed; readonly summary: string};

const runningKudo = new Set(['PENDING', 'IN_PROGRESS', 'ERROR']);

function keepWaiting(waitingFor: string, idleMs: number | undefined, staleMs: number): WaitVerdict {
	// Stryker disable next-line ConditionalExpression: `undefined > n` is false already; the check is for the type checker.
	if (idleMs !== undefined && staleMs > 0 && idleMs > staleMs) {
		return {done: false, waitingFor: `${waitingFor} (no update for ${formatDurationWords(idleMs)})`, stale: true};
	}

	return {done: false, waitingFor};
}

function kudoVerdict(object: PlanObject, facts: KudoWaitFacts, baseline: PlanObject | undefined, options: WaitRuleOptions): WaitVerdict {
	if (facts.unreadable !== undefined) {
		return {done: true, exitCode: exitCodes.failed, summary: facts.unreadable};
	}

	if (options.plan !== undefined) {
		return namedPlanVerdict(object, facts, baseline, options.plan, options);
	}

	if (facts.queued) {
		return {done: false, waitingFor: `waiting for the controller to start ${facts.scheduledPlan}`};
	}

	// The KUDO CLI's uid snapshot: a plan that was only scheduled when the wait began has not run until its
	// planStatus uid changes; whatever status it shows until then belongs to the previous run.
	const before = baseline?.wait.kind === 'Instance' ? baseline.wait : undefined;
	if (before?.queued && before.scheduledPlan && facts.planUids[before.scheduledPlan] === before.planUids[before.scheduledPlan]) {
		return {done: false, waitingFor: `waiting for the controller to start ${before.scheduledPlan}`};
	}

	// No active plan has no active status either: that is the NEVER_RUN-or-nothing case below.
	const status = facts.activeStatus ?? '';
	if (status === 'COMPLETE') {
		return {done: true, exitCode: exitCodes.ok, summary: object.summary};
	}

	if (status === 'FATAL_ERROR') {
		return {done: true, exitCode: exitCodes.failed, summary: object.summary};
	}

	if (runningKudo.has(status)) {
		// lastUpdatedTimestamp is refreshed on every reconcile (about 1 s) while a plan runs.
		return keepWaiting(object.summary, msSince(object.updatedAt, options.now), options.staleMs);
	}

	if (facts.scheduledPlan) {
		return {done: false, waitingFor: object.summary};
	}

	if (status === 'NEVER_RUN' || status === '') {
		return {done: true, exitCode: exitCodes.ok, summary: 'no plan has run'};
	}

	// A status word KUDO does not have, and nothing scheduled: it will not turn into COMPLETE by waiting.
	return {done: true, exitCode: exitCodes.failed, summary: object.summary};
}

/**
 * `--plan P`: wait for P — the run triggered after the wait began (it is scheduled, or its status uid changed since
 * the wait began), else its latest run. A plan that never ran is waited for (until it is triggered, or the
 * timeout); one the Instance does not have ends the wait with 1 and says which plans it has.
 */
function namedPlanVerdict(
	object: PlanObject,
	facts: KudoWaitFacts,
	baseline: PlanObject | undefined,
	plan: string,
	options: WaitRuleOptions,
): WaitVerdict {
	const node = object.tree.find(n => n.kind === 'plan' && n.name === plan);
	if (!node) {
		const plans = object.tree.filter(n => n.kind === 'plan').map(n => n.name);
		return plans.length === 0
			? {done: false, waitingFor: `waiting for plan ${plan} to run (no plan of this Instance is known yet)`}
			: {done: true, exitCode: exitCodes.failed, summary: `no plan ${plan} in this Instance (its plans: ${plans.join(', ')})`};
	}

	if (facts.scheduledPlan === plan && facts.queued) {
		return {done: false, waitingFor: `waiting for the controller to start ${plan}`};
	}

	// Scheduled when the wait began and not yet taken: the status shown is the previous run's (KUDO's uid snapshot).
	const before = baseline?.wait.kind === 'Instance' ? baseline.wait : undefined;
	if (before?.queued && before.scheduledPlan === plan && facts.planUids[plan] === before.planUids[plan]) {
		return {done: false, waitingFor: `waiting for the controller to start ${plan}`};
	}

	const status = facts.planStatuses?.[plan] ?? node.status;
	const summary = facts.activePlan === plan && facts.undecided === undefined ? object.summary : planSummary(node, status);
	if (status === 'COMPLETE') {
		return {done: true, exitCode: exitCodes.ok, summary};
	}

	if (status === 'FATAL_ERROR') {
		return {done: true, exitCode: exitCodes.failed, summary};
	}

	if (runningKudo.has(status)) {
		return keepWaiting(summary, msSince(node.updatedAt, options.now), options.staleMs);
	}

	if (status === 'NEVER_RUN' || status === '' || status === 'QUEUED') {
		return {
			done: false,
			waitingFor: facts.scheduledPlan === plan
				? `${plan} scheduled, waiting to start`
				: `waiting for plan ${plan} to be triggered (it has not run yet)`,
		};
	}

	return {done: true, exitCode: exitCodes.failed, summary};
}

/** One line for a plan that is not the Instance's active one: its status and, when it failed, where. */
function planSummary(plan: PlanNode, status: string): string {
	if (status === 'COMPLETE') {
		return `${plan.name} completed`;
	}

	const steps = plan.children.flatMap(phase => phase.children.map(step => ({phase, step})));
	if (status === 'FATAL_ERROR') {
		const failed = steps.find(x => x.step.status === 'FATAL_ERROR');
		const where = failed ? ` in phase ${failed.phase.name}, step ${failed.step.name}` : '';
		const message = failed?.step.message ?? plan.message;
		return `${plan.name} failed${where}${message ? `: ${message}` : ''}`;
	}

	return `${plan.name} ${status === 'ERROR' ? 'retrying' : status === 'PENDING' ? 'pending' : 'in progress'}`;
}

/** A pending deferPhase that may still start: wait the grace period (since the last progress) for it. */
function deferGrace(object: PlanObject, idle: number | undefined, options: WaitRuleOptions): WaitVerdict | undefined {
	// Stryker disable next-line ConditionalExpression: `undefined < n` is false already; the check is for the type checker.
	if (idle !== undefined && idle < options.deferGraceMs) {
		return {
			done: false,
			waitingFor: `${object.summary}; giving the deferPhase ${formatDurationWords(options.deferGraceMs - idle)} to start`,
		};
	}

	return undefined;
}

function kanisterVerdict(object: PlanObject, facts: KanisterWaitFacts, options: WaitRuleOptions): WaitVerdict {
	// Rejected by pkg/validate: the controller will never act on it, as with an inconsistent `complete`.
	if (facts.rejected !== undefined) {
		return {done: true, exitCode: exitCodes.failed, summary: object.summary};
	}

	const idle = msSince(facts.lastProgressAt, options.now);
	switch (facts.state) {
		case '':
		case 'pending':
		case 'running': {
			return keepWaiting(object.summary, idle, options.staleMs);
		}

		case 'complete': {
			// pkg/validate/validate.go rejects it; nothing the controller does will change it.
			if (facts.inconsistent) {
				return {done: true, exitCode: exitCodes.failed, summary: object.summary};
			}

			// maybeSetActionSetStateComplete (pkg/controller/controller.go) checks only core phases: another action's
			// deferPhase may still run, and its failure rewrites the state to failed.
			if (facts.deferRunning) {
				return keepWaiting(object.summary, idle, options.staleMs);
			}

			if (facts.deferPending) {
				// Its core phases are all complete, so it starts at once, unless its parameters failed to
				// initialise (runAction: no state is written then, and the deferPhase never runs).
				return deferGrace(object, idle, options) ??
					{done: true, exitCode: exitCodes.failed, summary: `${object.summary}; the deferPhase never started`};
			}

			return {done: true, exitCode: exitCodes.ok, summary: object.summary};
		}

		case 'failed': {
			if (facts.deferRunning) {
				return keepWaiting(object.summary, idle, options.staleMs);
			}

			// Pending deferPhase after a failure: it may be about to start, or never will. A launch failure (no
			// goroutine, so no deferPhase) is already excluded from deferPending by its event.
			if (facts.deferPending) {
				return deferGrace(object, idle, options) ?? {done: true, exitCode: exitCodes.failed, summary: object.summary};
			}

			return {done: true, exitCode: exitCodes.failed, summary: object.summary};
		}

		default: {
			return {done: true, exitCode: exitCodes.failed, summary: object.summary};
		}
	}
}

/** Done (with exit code 0 or 1) or still waiting (for what). `baseline` is the object as it was when the wait began. */
export function waitVerdict(object: PlanObject, baseline: PlanObject | undefined, options: WaitRuleOptions): WaitVerdict {
	return object.wait.kind === 'Instance'
		? kudoVerdict(object, object.wait, baseline, options)
		: kanisterVerdict(object, object.wait, options);
}

/**
 * A target deleted while waited for: the wait ends at once, with the last state seen.
 * - It had finished (its last state was a verdict): that verdict's code — deleting it afterwards changes nothing.
 * - A KUDO Instance held by `kudo.dev.instance.cleanup` whose cleanup plan was its active plan and had not failed:
 *   the manager removes that finalizer only once cleanup is COMPLETE (TryRemoveFinalizer, instance_types_helpers.go;
 *   the final status write then fails on the gone object), so its going is the cleanup's success: 0. With `--plan P`
 *   that answers only P = cleanup: any other named plan is judged by its own last state.
 * - Otherwise it was deleted before it finished (an ActionSet cancelled by deleting it, an Instance removed
 *   mid-plan, a plan named by `--plan` that the manager replaced by cleanup): what was waited for will never
 *   finish: 1, as `kubectl wait` fails for an object that is gone.
 */
export function deletedVerdict(
	object: PlanObject,
	baseline: PlanObject | undefined,
	options: WaitRuleOptions,
): WaitVerdict & {readonly done: true} {
	const facts = object.wait;
	const named = facts.kind === 'Instance' ? options.plan : undefined;
	// Stryker disable next-line ConditionalExpression: an ActionSet has no activePlan, so the kind check only narrows the type.
	const cleanupAnswers = named === undefined || named === 'cleanup';
	const held = object.deletion?.finalizers.includes(kudoCleanupFinalizer) === true;
	if (held && cleanupAnswers && facts.kind === 'Instance' && facts.activePlan === 'cleanup' && facts.activeStatus !== 'FATAL_ERROR') {
		return {
			done: true,
			exitCode: exitCodes.ok,
			summary: `deleted after its cleanup plan finished (KUDO lets it go only then); last seen: ${object.summary}`,
		};
	}

	const last = waitVerdict(object, baseline, options);
	if (last.done) {
		return {done: true, exitCode: last.exitCode, summary: `deleted after it had finished: ${last.summary}`};
	}

	return named === undefined
		? {done: true, exitCode: exitCodes.failed, summary: `deleted before it finished; last seen: ${object.summary}`}
		: {done: true, exitCode: exitCodes.failed, summary: `deleted before plan ${named} finished; last seen: ${last.waitingFor}`};
}
