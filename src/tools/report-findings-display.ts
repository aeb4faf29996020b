import * as z from 'zod';

export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One finding as its card shows it, with the lines around the place when cairn could read them. */
export const FindingSchema = z.object({
  file: z.string(),
  line: z.number(),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  why: z.string(),
  fix: z.string(),
  /** The file's lines around `line`, first line number `start`. */
  excerpt: z.object({ start: z.number(), lines: z.array(z.string()) }).optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

export const ReportFindingsDisplaySchema = z.object({
  kind: z.literal('report_findings'),
  findings: z.array(FindingSchema),
  summary: z.string().optional(),
});
export type ReportFindingsDisplay = z.infer<typeof ReportFindingsDisplaySchema>;
