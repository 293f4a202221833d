import { hasDatabase } from "./request.js";
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Creates or updates one runtime relationship per service relationship; never throws. */
export async function mirrorRelationships(runtime, relationships, onError) {
    const outcome = { created: 0, updated: 0, failed: 0 };
    if (relationships.length === 0 || !hasDatabase(runtime))
        return outcome;
    // One at a time: two relationships of one pair in one response must not race into two rows.
    for (const relationship of relationships) {
        try {
            const result = await mirrorOne(runtime, relationship);
            if (result !== "skipped")
                outcome[result] += 1;
        }
        catch (error) {
            outcome.failed += 1;
            onError(error);
        }
    }
    return outcome;
}
async function mirrorOne(runtime, relationship) {
    const sourceEntityId = asUuid(relationship.sourceEntityId);
    const targetEntityId = asUuid(relationship.targetEntityId);
    if (!sourceEntityId || !targetEntityId)
        return "skipped";
    const existing = await runtime.getRelationship({ sourceEntityId, targetEntityId });
    if (!existing) {
        await runtime.createRelationship({
            sourceEntityId,
            targetEntityId,
            tags: [...relationship.tags],
            metadata: mergedMetadata(undefined, relationship),
        });
        return "created";
    }
    await runtime.updateRelationship(merged(existing, relationship));
    return "updated";
}
/** Keeps what other plugins stored on the relationship and adds what the service learned. */
export function merged(existing, learned) {
    return {
        ...existing,
        tags: [...new Set([...(existing.tags ?? []), ...learned.tags])],
        metadata: mergedMetadata(existing.metadata, learned),
    };
}
function mergedMetadata(existing, learned) {
    const previous = typeof existing?.["interactions"] === "number" ? existing["interactions"] : 0;
    return {
        ...existing,
        // elizaOS's RELATIONSHIPS provider ranks by metadata.interactions.
        interactions: Math.max(previous, learned.interactionCount),
        factMemory: { tags: [...learned.tags], interactionCount: learned.interactionCount },
    };
}
function asUuid(value) {
    return UUID_PATTERN.test(value) ? value : undefined;
}
//# sourceMappingURL=relationships.js.map