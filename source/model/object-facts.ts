import type {PlanObject} from './plan-tree.js';

/**
 * The facts shown after an object's name in every view: KUDO `mysql-5.7-0.3.0 · active plan deploy`, Kanister
 * `blueprint postgres-bp · failed · 62%`. One definition for the TUI and the plain output.
 */
export function objectFacts(object: PlanObject): string[] {
	const facts: string[] = [];
	if (object.kind === 'Instance') {
		if (object.version) {
			facts.push(object.version);
		}

		if (object.active) {
			facts.push(`active plan ${object.active}`);
		}

		return facts;
	}

	if (object.version) {
		facts.push(`blueprint ${object.version}`);
	}

	if (object.status) {
		facts.push(object.status);
	}

	if (object.percent !== undefined) {
		facts.push(`${formatPercent(object.percent)}%`);
	}

	return facts;
}

/** `62`, `33.5`: percentages as the object gave them, without noise digits. */
export function formatPercent(percent: number): string {
	return String(Math.round(percent * 10) / 10);
}
