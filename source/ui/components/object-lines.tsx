import {Box, Text} from 'ink';
import {timeOfDay} from '../../model/clock-time.js';
import {objectFacts} from '../../model/object-facts.js';
import {parseObjectKey, qualifiedName, type PlanObject} from '../../model/plan-tree.js';
import {singleLine} from '../cell-text.js';
import {roleOf, type Glyphs} from '../theme.js';
import {useTheme} from '../theme-context.js';
import {StatusIcon} from './status-icon.js';
import {Line} from './line.js';

/** `Instance default/mysql-instance · mysql-5.7-0.3.0 · active plan deploy` / `ActionSet … · blueprint … · failed · 62%`. */
export function objectTitle(object: PlanObject, glyphs: Pick<Glyphs, 'separator' | 'lineBreak'>): string {
	const parts = [`${object.kind} ${qualifiedName(object)}`, ...objectFacts(object)];
	return singleLine(parts.join(`  ${glyphs.separator}  `), glyphs.lineBreak);
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
	return (
		<Box flexDirection="column" width={width}>
			<Line bold>
				{object ? objectTitle(object, theme.glyphs) : `${wanted.kind} ${qualifiedName(wanted)}`}
				{/* The summary line below is often cut at the width: the title is short, the ETA stays in view. */}
				{eta ? (
					<Text bold={false} {...theme.style(eta.startsWith('overdue') ? 'warning' : 'muted')}>
						{`  ${theme.glyphs.separator}  ${eta}`}
					</Text>
				) : undefined}
			</Line>
			{height > 1 ? (
				object && deletedAt !== undefined ? (
					<Line>
						<Text {...theme.style('warning')}>{`deleted at ${timeOfDay(deletedAt, theme.timeZone)}`}</Text>
						<Text {...theme.style('muted')}>{`; last seen: ${singleLine(object.summary, theme.glyphs.lineBreak)}`}</Text>
					</Line>
				) : object ? (
					<Line>
						{/* Static icon: the spinners are on the tree's running rows; one at the start of this line would
						rewrite it all every second. */}
						<StatusIcon state={lineState(object)} spin={false} /> <Text {...theme.style(roleOf(object.state))}>
							{singleLine(object.summary, theme.glyphs.lineBreak)}
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
