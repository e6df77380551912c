import {Box, Text} from 'ink';
import {timeOfDay} from '../../model/clock-time.js';
import {objectFacts} from '../../model/object-facts.js';
import {parseObjectKey, qualifiedName, type PlanObject} from '../../model/plan-tree.js';
import {fitParts, singleLine, truncate, type LinePart} from '../cell-text.js';
import {displayWidth} from '../../model/display-width.js';
import {roleOf, type Glyphs} from '../theme.js';
import {useTheme} from '../theme-context.js';
import {StatusIcon} from './status-icon.js';
import {Line} from './line.js';

/**
 * `Instance default/mysql-instance  ·  mysql-5.7-0.3.0  ·  active plan deploy` / `ActionSet …  ·  blueprint …  ·
 * failed  ·  62%`, fitted to `width` cells (`reserve`: cells kept free at the end, for the ETA). Too long, it
 * gets narrower separators, then leaves out the version or blueprint, then cuts the plan's name and the
 * object's name (marked); the kind, the state word and the percentage are never cut.
 */
export function objectTitle(
	object: PlanObject,
	glyphs: Pick<Glyphs, 'separator' | 'lineBreak' | 'ellipsis'>,
	width = Number.POSITIVE_INFINITY,
	reserve = 0,
): string {
	const one = (text: string) => singleLine(text, glyphs.lineBreak);
	const room = width - reserve;
	const layout = (sep: string, withVersion: boolean): LinePart[] => {
		const parts: LinePart[] = [{text: `${object.kind} `}, {text: one(qualifiedName(object)), giveWay: 2, min: 12}];
		for (const fact of objectFacts(object)) {
			const isVersion = object.version !== undefined && (fact === object.version || fact === `blueprint ${object.version}`);
			if (isVersion && !withVersion) {
				continue;
			}

			parts.push({text: sep});
			if (object.kind === 'Instance' && object.active && fact === `active plan ${object.active}`) {
				parts.push({text: 'active plan '}, {text: one(object.active), giveWay: 1, min: 8});
			} else {
				parts.push({text: one(fact)});
			}
		}

		return parts;
	};

	const candidates = [
		layout(`  ${glyphs.separator}  `, true),
		layout(` ${glyphs.separator} `, true),
		layout(` ${glyphs.separator} `, false),
	];
	const fits = candidates.find(parts => parts.reduce((sum, part) => sum + displayWidth(part.text), 0) <= room);
	return fitParts(fits ?? candidates.at(-1)!, room, glyphs.ellipsis).join('');
}

export type ObjectLinesProps = {
	readonly object: PlanObject | undefined;
	/** Key of the object we are showing (for when it is not there yet). */
	readonly objectKey: string;
	readonly synced: boolean;
	/** Clock time the object was deleted; `object` is then its last state. */
	readonly deletedAt?: number;
	/** The running plan's ETA from past runs (`~2m left`), after the title. */
	readonly eta?: string;
	/** 0, 1 (title) or 2 (title + summary) lines. */
	readonly height: number;
	readonly width: number;
};

/**
 * The state the summary line's icon shows: a KUDO plan PENDING once the controller has taken it is running (KUDO's
 * IsRunning: ResetPlanStatus writes PENDING as the run starts), not waiting its turn (a queued plan is QUEUED).
 */
export function lineState(object: PlanObject): PlanObject['state'] {
	return object.kind === 'Instance' && object.status === 'PENDING' && object.outcome === 'running' ? 'running' : object.state;
}

/** The object's title line and its one-line summary with an icon. */
export function ObjectLines({object, objectKey, synced, deletedAt, eta, height, width}: ObjectLinesProps) {
	const theme = useTheme();
	if (height <= 0) {
		return null;
	}

	const wanted = parseObjectKey(objectKey);
	const etaText = eta ? `  ${theme.glyphs.separator}  ${eta}` : '';
	// The summary after its icon and a space: cut with the theme's marker (ASCII output clips no line unmarked).
	const summary = (text: string, room: number) => truncate(singleLine(text, theme.glyphs.lineBreak), room, theme.glyphs.ellipsis);
	const lastSeen = object ? `; last seen: ${singleLine(object.summary, theme.glyphs.lineBreak)}` : '';
	const deletedText = deletedAt === undefined ? '' : `deleted at ${timeOfDay(deletedAt, theme.timeZone)}`;
	return (
		<Box flexDirection="column" width={width}>
			<Line bold>
				{object
					? objectTitle(object, theme.glyphs, width, displayWidth(etaText))
					: summary(`${wanted.kind} ${qualifiedName(wanted)}`, width)}
				{/* The ETA is a timer: room is kept for it, the title gives way. */}
				{eta ? <Text bold={false} {...theme.style(eta.startsWith('overdue') ? 'warning' : 'muted')}>{etaText}</Text> : undefined}
			</Line>
			{height > 1 ? (
				object && deletedAt !== undefined ? (
					<Line>
						<Text {...theme.style('warning')}>{deletedText}</Text>
						<Text {...theme.style('muted')}>
							{truncate(lastSeen, width - displayWidth(deletedText), theme.glyphs.ellipsis)}
						</Text>
					</Line>
				) : object ? (
					<Line>
						{/* Static icon: the spinners are on the tree's running rows; one at the start of this line would
						rewrite it all every second. */}
						<StatusIcon state={lineState(object)} spin={false} /> <Text {...theme.style(roleOf(object.state))}>
							{summary(object.summary, width - displayWidth(theme.icon(lineState(object))) - 1)}
						</Text>
					</Line>
				) : (
					<Line {...theme.style('muted')}>
						{synced ? 'not found: watching for it to appear' : `loading${theme.glyphs.ellipsis}`}
					</Line>
				)
			) : undefined}
		</Box>
	);
}
