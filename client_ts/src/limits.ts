/**
 * The service's request limits, learned from the service (GetLimits) instead of copied by hand: texts and names are
 * cut, and message lists, roles, room entities and batches sized, to what THIS service accepts, however it is
 * configured (FACTMEMORY_MAX_*). Asked once per runtime at first use and kept.
 */
import { Code, ConnectError } from "@connectrpc/connect";

import type { GetLimitsResponse } from "./gen/factmemory/v1/factmemory_pb.js";

export interface ServiceLimits {
  /** A message's text, in characters. */
  maxTextChars: number;
  /** A sender's or a room entity's name, the subject's name and each speaker role, in characters. */
  maxNameChars: number;
  /** recent_messages, and agent_responses, each. */
  maxRecentMessages: number;
  /** The messages of one EvaluateBatch. */
  maxBatchMessages: number;
  /** room_entities. */
  maxRoomEntities: number;
  /** A section's limit in Provide; its total_limit is at most twice this. */
  maxProvideLimit: number;
  /** speaker_roles. */
  maxSpeakerRoles: number;
}

/**
 * What a service that cannot say (one older than GetLimits) is taken to accept: its defaults, the FACTMEMORY_MAX_*
 * settings of server/factmemory/settings.py and MAX_SPEAKER_ROLES of domain/limits.py.
 */
export const DEFAULT_LIMITS: Readonly<ServiceLimits> = Object.freeze({
  maxTextChars: 8_000,
  maxNameChars: 200,
  maxRecentMessages: 50,
  maxBatchMessages: 16,
  maxRoomEntities: 100,
  maxProvideLimit: 50,
  maxSpeakerRoles: 16,
});

/** After a failed ask (the service down, a wrong token), the defaults serve until this long has passed. */
export const LIMITS_RETRY_MS = 30_000;

export interface LimitsOptions {
  /** Calls GetLimits. */
  ask(): Promise<GetLimitsResponse>;
  /** The service is older than GetLimits: the defaults serve from now on (said once). */
  onOlderService(error: unknown): void;
  /** Asking failed otherwise: the defaults serve until the next ask. */
  onFailure(error: unknown): void;
  retryMs?: number;
  now?: () => number;
}

/** The limits of one service, asked for at first use; concurrent first uses share one ask. */
export class LearnedLimits {
  readonly #options: LimitsOptions;
  #learned: Readonly<ServiceLimits> | undefined;
  #asking: Promise<Readonly<ServiceLimits>> | undefined;
  #askAfter = 0;

  constructor(options: LimitsOptions) {
    this.#options = options;
  }

  /** The service's limits; the defaults while it cannot be asked (never rejects). */
  get(): Promise<Readonly<ServiceLimits>> {
    if (this.#learned) return Promise.resolve(this.#learned);
    if (this.#asking) return this.#asking;
    if (this.#now() < this.#askAfter) return Promise.resolve(DEFAULT_LIMITS);
    const asking = this.#ask().finally(() => {
      this.#asking = undefined;
    });
    this.#asking = asking;
    return asking;
  }

  async #ask(): Promise<Readonly<ServiceLimits>> {
    try {
      this.#learned = fromResponse(await this.#options.ask());
      return this.#learned;
    } catch (error) {
      if (ConnectError.from(error).code === Code.Unimplemented) {
        this.#learned = DEFAULT_LIMITS;
        this.#options.onOlderService(error);
      } else {
        this.#askAfter = this.#now() + (this.#options.retryMs ?? LIMITS_RETRY_MS);
        this.#options.onFailure(error);
      }
      return DEFAULT_LIMITS;
    }
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }
}

/** A limit the response leaves at 0 (a field this service does not know) keeps its default. */
export function fromResponse(response: GetLimitsResponse): Readonly<ServiceLimits> {
  const given = (value: number, fallback: number) => (value > 0 ? value : fallback);
  return Object.freeze({
    maxTextChars: given(response.maxTextChars, DEFAULT_LIMITS.maxTextChars),
    maxNameChars: given(response.maxNameChars, DEFAULT_LIMITS.maxNameChars),
    maxRecentMessages: given(response.maxRecentMessages, DEFAULT_LIMITS.maxRecentMessages),
    maxBatchMessages: given(response.maxBatchMessages, DEFAULT_LIMITS.maxBatchMessages),
    maxRoomEntities: given(response.maxRoomEntities, DEFAULT_LIMITS.maxRoomEntities),
    maxProvideLimit: given(response.maxProvideLimit, DEFAULT_LIMITS.maxProvideLimit),
    maxSpeakerRoles: given(response.maxSpeakerRoles, DEFAULT_LIMITS.maxSpeakerRoles),
  });
}
