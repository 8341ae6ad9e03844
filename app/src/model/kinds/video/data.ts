// The video-format data file, typed once. The JSON is the single source of the figures and
// their sources; this module only gives it types for the table and the math.
import raw from './video-formats.json' with { type: 'json' };
import type { Resolution, VideoFormat } from './math.js';

export interface VideoSource {
  id: string;
  title: string;
  publisher: string;
  url: string;
  date: string;
  note?: string;
}

export interface VideoData {
  sources: VideoSource[];
  resolutions: Resolution[];
  frameRates: number[];
  /** `note` is the tab's one footnote for its estimates; `perMode` says why rates are not per pixel. */
  families: { id: string; label: string; note?: string; perMode?: string }[];
  formats: VideoFormat[];
}

// JSON imports type `kind` as string; the file's shape is checked by test/app/model/kinds/video/video-data.test.ts.
export const videoData = raw as unknown as VideoData;
