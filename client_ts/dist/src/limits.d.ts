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
export declare const DEFAULT_LIMITS: Readonly<ServiceLimits>;
/** After a failed ask (the service down, a wrong token), the defaults serve until this long has passed. */
export declare const LIMITS_RETRY_MS = 30000;
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
export declare class LearnedLimits {
    #private;
    constructor(options: LimitsOptions);
    /** The service's limits; the defaults while it cannot be asked (never rejects). */
    get(): Promise<Readonly<ServiceLimits>>;
}
/** A limit the response leaves at 0 (a field this service does not know) keeps its default. */
export declare function fromResponse(response: GetLimitsResponse): Readonly<ServiceLimits>;
