/**
 * What a real controller's objects always satisfy (shared/docs/kudo-kanister-facts.md), written independently
 * of the builders so the scenario data is checked, not re-derived. Each function returns the problems found.
 */
import type {KubeObject} from '../../source/core/kube-object.js';

const kudoStatuses = new Set(['NEVER_RUN', 'PENDING', 'IN_PROGRESS', 'COMPLETE', 'ERROR', 'FATAL_ERROR']);
const running = new Set(['PENDING', 'IN_PROGRESS', 'ERROR']);
const terminal = new Set(['COMPLETE', 'FATAL_ERROR']);
const kanisterStates = new Set(['pending', 'running', 'failed', 'complete']);
const isoSeconds = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const readyPairs = new Set(['Unknown/PlanInProgress', 'Unknown/PlanInFatalError', 'True/ResourcesReady', 'False/ResourceNotReady']);

type Named = {name?: string; status?: string; message?: string};
type KudoPlan = Named & {uid?: string; lastUpdatedTimestamp?: string; phases?: Array<Named & {steps?: Named[]}>};
type OvPlan = {strategy?: string; phases?: Array<{name: string; strategy?: string; steps?: Array<{name: string}>}>};

function phaseAggregate(children: string[]): string {
	if (children.includes('FATAL_ERROR')) {
		return 'FATAL_ERROR';
	}

	if (children.every(s => s === 'COMPLETE')) {
		return 'COMPLETE';
	}

	return children.every(s => s === 'PENDING') ? 'PENDING' : 'IN_PROGRESS';
}

/**
 * A KUDO Instance. `settled`: no write of the same instant is still to come (the controller writes spec, then
 * status), so spec.planExecution and planStatus must agree.
 */
export function instanceProblems(instance: KubeObject, operatorVersion: KubeObject | undefined, settled: boolean): string[] {
	const problems: string[] = [];
	const name = instance.metadata?.name ?? '';
	const ns = instance.metadata?.namespace ?? '';
	const spec = (instance['spec'] ?? {}) as {operatorVersion?: {name?: string}; planExecution?: {planName?: string; uid?: string; status?: string}};
	const status = instance['status'] as {planStatus?: Record<string, KudoPlan>; conditions?: Array<Record<string, string>>} | undefined;
	const ovPlans = ((operatorVersion?.['spec'] ?? {}) as {plans?: Record<string, OvPlan>}).plans;
	const pe = spec.planExecution;
	if (!spec.operatorVersion?.name) {
		problems.push('spec.operatorVersion.name missing');
	}

	if (!pe) {
		problems.push('spec.planExecution missing');
	} else {
		if (pe.status !== undefined && !kudoStatuses.has(pe.status)) {
			problems.push(`spec.planExecution.status ${pe.status}`);
		}

		if (pe.planName && !pe.uid) {
			problems.push('spec.planExecution without uid');
		}

		if (!pe.planName && (pe.uid || pe.status)) {
			problems.push('spec.planExecution not fully cleared');
		}
	}

	if (!status) {
		return problems;
	}

	const plans = status.planStatus ?? {};
	if (ovPlans && JSON.stringify(Object.keys(plans).sort()) !== JSON.stringify(Object.keys(ovPlans).sort())) {
		problems.push(`planStatus plans ${Object.keys(plans).join(',')} != OperatorVersion plans ${Object.keys(ovPlans).join(',')}`);
	}

	const runningPlans: string[] = [];
	for (const [planName, plan] of Object.entries(plans)) {
		const where = `plan ${planName}`;
		if (plan.name !== planName) {
			problems.push(`${where}: name ${String(plan.name)}`);
		}

		if (!kudoStatuses.has(plan.status ?? '')) {
			problems.push(`${where}: status ${String(plan.status)}`);
			continue;
		}

		const ov = ovPlans?.[planName];
		const phases = plan.phases ?? [];
		if (ov && JSON.stringify(phases.map(p => [p.name, (p.steps ?? []).map(s => s.name)])) !== JSON.stringify((ov.phases ?? []).map(p => [p.name, (p.steps ?? []).map(s => s.name)]))) {
			problems.push(`${where}: phases/steps not in OperatorVersion order`);
		}

		if (plan.message !== undefined) {
			problems.push(`${where}: plan message`);
		}

		if (plan.status === 'NEVER_RUN') {
			if (plan.uid !== undefined || plan.lastUpdatedTimestamp !== undefined) {
				problems.push(`${where}: NEVER_RUN with uid or timestamp`);
			}

			if (phases.some(p => p.status !== 'NEVER_RUN' || (p.steps ?? []).some(s => s.status !== 'NEVER_RUN'))) {
				problems.push(`${where}: NEVER_RUN plan with run phases`);
			}

			continue;
		}

		if (!plan.uid || !isoSeconds.test(plan.lastUpdatedTimestamp ?? '')) {
			problems.push(`${where}: run without uid or lastUpdatedTimestamp`);
		}

		if (running.has(plan.status!)) {
			runningPlans.push(planName);
		}

		const phaseStatuses: string[] = [];
		for (const [pi, phase] of phases.entries()) {
			const steps = phase.steps ?? [];
			const stepStatuses = steps.map(s => s.status ?? '');
			for (const step of steps) {
				const path = `${planName}.${phase.name ?? ''}.${step.name ?? ''}`;
				if (!kudoStatuses.has(step.status ?? '') || step.status === 'NEVER_RUN') {
					problems.push(`step ${path}: status ${String(step.status)} in a run`);
				}

				if (step.status === 'ERROR' && !step.message?.startsWith(`A transient error when executing task ${path}.`)) {
					problems.push(`step ${path}: ERROR without the engine's transient message`);
				} else if (step.status === 'FATAL_ERROR' && !step.message?.startsWith(`Error during execution: fatal error: ${ns}/${name} failed in ${path}.`)) {
					problems.push(`step ${path}: FATAL_ERROR without the engine's fatal message`);
				} else if (step.status !== 'ERROR' && step.status !== 'FATAL_ERROR' && step.message !== undefined) {
					problems.push(`step ${path}: message on ${String(step.status)}`);
				}
			}

			if (phase.message !== undefined) {
				problems.push(`phase ${planName}.${phase.name ?? ''}: message`);
			}

			if (phase.status !== phaseAggregate(stepStatuses)) {
				problems.push(`phase ${planName}.${phase.name ?? ''}: ${String(phase.status)} but steps ${stepStatuses.join(',')}`);
			}

			// Engine order: in a serial phase only the first unfinished step may have started.
			const strategy = ov?.phases?.[pi]?.strategy;
			const firstOpen = stepStatuses.findIndex(s => s !== 'COMPLETE');
			if (phase.status === 'IN_PROGRESS' && firstOpen !== -1) {
				if (strategy === 'serial') {
					if (stepStatuses.slice(firstOpen + 1).some(s => s !== 'PENDING')) {
						problems.push(`phase ${planName}.${phase.name ?? ''}: serial steps started out of order (${stepStatuses.join(',')})`);
					}

					if (stepStatuses[firstOpen] === 'PENDING') {
						problems.push(`phase ${planName}.${phase.name ?? ''}: serial phase running but its next step is PENDING`);
					}
				} else if (stepStatuses.includes('PENDING')) {
					problems.push(`phase ${planName}.${phase.name ?? ''}: parallel phase running with PENDING steps`);
				}
			}

			phaseStatuses.push(phase.status ?? '');
		}

		const expected = phaseAggregate(phaseStatuses);
		if (plan.status !== expected && !(plan.status === 'IN_PROGRESS' && expected === 'PENDING')) {
			problems.push(`${where}: ${plan.status} but phases ${phaseStatuses.join(',')}`);
		}

		if (ov?.strategy === 'serial' && plan.status === 'IN_PROGRESS') {
			const firstOpen = phaseStatuses.findIndex(s => s !== 'COMPLETE');
			if (firstOpen !== -1 && (phaseStatuses[firstOpen] === 'PENDING' || phaseStatuses.slice(firstOpen + 1).some(s => s !== 'PENDING'))) {
				problems.push(`${where}: serial phases out of order (${phaseStatuses.join(',')})`);
			}
		}

		// Cleared at terminal: the webhook empties planExecution in the same spec write that reports the end.
		if (terminal.has(plan.status!) && pe?.uid === plan.uid) {
			problems.push(`${where}: ${plan.status} while spec.planExecution still names this run`);
		}

		if (settled && running.has(plan.status!) && (pe?.planName !== planName || pe.uid !== plan.uid || pe.status !== plan.status)) {
			problems.push(`${where}: running but spec.planExecution is ${JSON.stringify(pe)}`);
		}
	}

	if (runningPlans.length > 1) {
		problems.push(`several plans running: ${runningPlans.join(',')}`);
	}

	const conditions = status.conditions ?? [];
	if (
		conditions.length > 1 ||
		conditions.some(c => c['type'] !== 'Ready' || !readyPairs.has(`${c['status']}/${c['reason']}`) || !isoSeconds.test(c['lastTransitionTime'] ?? '') || c['message'] !== '')
	) {
		problems.push(`conditions ${JSON.stringify(conditions)}`);
	}

	return problems;
}

type KPhase = {name?: string; state?: string; output?: unknown; progress?: {progressPercent?: string; lastTransitionTime?: string}};
type KAction = {name?: string; blueprint?: string; phases?: KPhase[]; deferPhase?: KPhase; artifacts?: unknown};
type KStatus = {state?: string; actions?: KAction[]; error?: {message?: string}; progress?: {runningPhase?: string; percentCompleted?: string; lastTransitionTime?: string}};
type BpAction = {phases?: Array<{name?: string}>; deferPhase?: {name?: string}};

/** A Kanister ActionSet (its Blueprint, when known, gives the expected phases). */
export function actionSetProblems(actionSet: KubeObject, blueprint: KubeObject | undefined): string[] {
	const problems: string[] = [];
	const specActions = ((actionSet['spec'] ?? {}) as {actions?: Array<{name?: string; blueprint?: string}>}).actions ?? [];
	const status = actionSet['status'] as KStatus | undefined;
	if (specActions.length === 0) {
		problems.push('spec.actions empty');
	}

	if (!status) {
		return problems;
	}

	const state = status.state ?? '';
	if (!kanisterStates.has(state)) {
		problems.push(`state ${state}`);
	}

	if (typeof status.error?.message !== 'string') {
		problems.push('status.error.message missing');
	}

	const actions = status.actions ?? [];
	if (actions.length !== specActions.length && !(state === 'failed' && actions.length === 0)) {
		problems.push('status.actions do not match spec.actions');
	}

	let anyFailed = false;
	let allComplete = true;
	const runningNames: string[] = [];
	const phasePercents: number[] = [];
	for (const [i, action] of actions.entries()) {
		const where = `action ${action.name ?? i}`;
		if (action.name !== specActions[i]?.name || action.blueprint !== specActions[i]?.blueprint) {
			problems.push(`${where}: name/blueprint differ from spec`);
		}

		const phases = action.phases ?? [];
		const bp = ((blueprint?.['actions'] ?? {}) as Record<string, BpAction>)[action.name ?? ''];
		if (blueprint && JSON.stringify(phases.map(p => p.name)) !== JSON.stringify((bp?.phases ?? []).map(p => p.name))) {
			problems.push(`${where}: phases differ from the blueprint`);
		}

		const states = phases.map(p => p.state ?? '');
		for (const [pi, phase] of phases.entries()) {
			if (!kanisterStates.has(phase.state ?? '')) {
				problems.push(`${where}: phase ${phase.name ?? pi} state ${String(phase.state)}`);
			}

			// validate.go: a phase that is not pending after one that is not complete is rejected.
			if (states.slice(0, pi).some(s => s !== 'complete') && phase.state !== 'pending') {
				problems.push(`${where}: phase ${phase.name ?? pi} is ${String(phase.state)} after an unfinished phase`);
			}

			const percent = phase.progress?.progressPercent;
			if (percent !== undefined && !/^\d+$/.test(percent)) {
				problems.push(`${where}: phase ${phase.name ?? pi} progressPercent ${percent}`);
			}

			if (phase.state === 'complete' && percent !== '100') {
				problems.push(`${where}: phase ${phase.name ?? pi} complete at ${String(percent)}%`);
			}

			if (phase.progress?.lastTransitionTime !== undefined && !isoSeconds.test(phase.progress.lastTransitionTime)) {
				problems.push(`${where}: phase ${phase.name ?? pi} lastTransitionTime`);
			}

			phasePercents.push(percent === undefined ? 0 : Number(percent));
			if (phase.state === 'running') {
				runningNames.push(phase.name ?? '');
			}
		}

		if (states.filter(s => s === 'running').length > 1) {
			problems.push(`${where}: several phases running`);
		}

		const defer = action.deferPhase;
		if (!defer) {
			problems.push(`${where}: deferPhase missing (non-pointer struct, always serialized)`);
		} else {
			if (defer.state !== '' && !kanisterStates.has(defer.state ?? '')) {
				problems.push(`${where}: deferPhase state ${String(defer.state)}`);
			}

			if (defer.state === 'running') {
				problems.push(`${where}: deferPhase running (the controller never writes that)`);
			}

			if (blueprint && (bp?.deferPhase ? (defer.name !== (bp.deferPhase.name ?? '') || defer.state === '') : defer.state !== '')) {
				problems.push(`${where}: deferPhase does not match the blueprint`);
			}

			const coreDone = !states.includes('running') && (states.every(s => s === 'complete') || states.includes('failed'));
			if ((defer.state === 'complete' || defer.state === 'failed') && !coreDone) {
				problems.push(`${where}: deferPhase finished before the core phases`);
			}
		}

		anyFailed ||= states.includes('failed') || defer?.state === 'failed';
		allComplete &&= states.every(s => s === 'complete') && (defer?.state === 'complete' || defer?.state === '');
		const templated = JSON.stringify(action.artifacts ?? {}).includes('{{');
		if (state === 'complete' && templated) {
			problems.push(`${where}: complete with unrendered artifacts`);
		}

		if (state !== 'complete' && action.artifacts !== undefined && !templated) {
			problems.push(`${where}: artifacts rendered before completion`);
		}
	}

	const message = status.error?.message ?? '';
	if (state === 'complete' && !allComplete) {
		problems.push('complete while a phase or the deferPhase is not');
	}

	if (anyFailed && state !== 'failed') {
		problems.push(`a phase failed but state is ${state}`);
	}

	if ((state === 'failed') !== (message !== '')) {
		problems.push(`state ${state} with error.message ${JSON.stringify(message)}`);
	}

	if (state === 'pending' && (runningNames.length > 0 || JSON.stringify(status.progress ?? {}) !== '{}')) {
		problems.push('pending with progress');
	}

	const progress = status.progress ?? {};
	if (progress.runningPhase !== undefined) {
		// It keeps naming a finished phase until the next one starts; a deferPhase stays pending while it runs.
		const known = actions.flatMap(a => [...(a.phases ?? []).filter(p => p.state !== 'pending').map(p => p.name), a.deferPhase?.state ? a.deferPhase.name : undefined]);
		if (!known.includes(progress.runningPhase)) {
			problems.push(`runningPhase ${progress.runningPhase} names no started phase or deferPhase`);
		}

		if (state === 'complete') {
			problems.push('runningPhase left set on a complete ActionSet');
		}
	}

	for (const name of runningNames) {
		if (progress.runningPhase !== name) {
			problems.push(`phase ${name} running but runningPhase is ${String(progress.runningPhase)}`);
		}
	}

	if (progress.percentCompleted !== undefined) {
		const expected = String(Math.floor(phasePercents.reduce((a, b) => a + b, 0) / Math.max(1, phasePercents.length)));
		if (progress.percentCompleted !== expected) {
			problems.push(`percentCompleted ${progress.percentCompleted}, phases average ${expected}`);
		}

		if (!isoSeconds.test(progress.lastTransitionTime ?? '')) {
			problems.push('percentCompleted without lastTransitionTime');
		}
	}

	return problems;
}

const kanisterReasons: Record<string, RegExp> = {
	'Started Action': /^Executing action \S+$/,
	'Started Phase': /^Executing phase \S+$/,
	'Ended Phase': /^Completed phase \S+$/,
	'Started deferPhase': /^Executing deferPhase ?\S*$/,
	'Ended deferPhase': /^Completed deferPhase ?\S*$/,
	'Update Complete': /^Updated ActionSet '\S+' Status->complete$/,
};

const kudoReasons: Record<string, RegExp> = {
	PlanStarted: /^Execution of plan \S+ started$/,
	FailedTerminalStateError: /^Error during execution: fatal error: /,
};

/** A core/v1 Event recorded by one of the controllers. */
export function eventProblems(event: KubeObject): string[] {
	const problems: string[] = [];
	const e = event as KubeObject
		& {involvedObject?: Record<string, string>; reason?: string; message?: string; type?: string; source?: {component?: string}; firstTimestamp?: string; lastTimestamp?: string; count?: number};
	const involved = e.involvedObject ?? {};
	if (!involved['kind'] || !involved['name'] || involved['namespace'] !== e.metadata?.namespace || !involved['apiVersion']) {
		problems.push(`involvedObject ${JSON.stringify(involved)}`);
	}

	if (e.type !== 'Normal' && e.type !== 'Warning') {
		problems.push(`type ${String(e.type)}`);
	}

	if (!isoSeconds.test(e.firstTimestamp ?? '') || e.firstTimestamp !== e.lastTimestamp || e.count !== 1) {
		problems.push('timestamps/count');
	}

	if (!e.metadata?.name?.startsWith(`${involved['name'] ?? ''}.`)) {
		problems.push(`name ${String(e.metadata?.name)}`);
	}

	const reason = e.reason ?? '';
	const message = e.message ?? '';
	if (e.source?.component === 'Kanister Controller') {
		const failed = /^ActionSetFailed Action: \S+$/.test(reason);
		if (failed) {
			if (e.type !== 'Warning' || !/^Failed to (execute phase: |execute defer phase: |launch Action \S+: )/.test(message)) {
				problems.push(`${reason}: ${message}`);
			}
		} else if (!kanisterReasons[reason]?.test(message) || e.type !== 'Normal' || involved['kind'] !== 'ActionSet') {
			problems.push(`Kanister event ${reason}: ${message}`);
		}
	} else if (e.source?.component === 'instance-controller') {
		if (!kudoReasons[reason]?.test(message) || involved['kind'] !== 'Instance' || e.type !== (reason === 'PlanStarted' ? 'Normal' : 'Warning')) {
			problems.push(`KUDO event ${reason}: ${message}`);
		}
	} else {
		problems.push(`source ${JSON.stringify(e.source)}`);
	}

	return problems;
}
