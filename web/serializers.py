"""Serializer pieces every app's requests are built from: a hex of a grid, and unknown keys refused by name."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

HEX_SCHEMA = {"oneOf": [{"type": "string", "example": "C4"},
                        {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
                         "example": [2, 3]}],
              "description": "A hex: its label, or [column, row] counted from 0."}


@extend_schema_field(HEX_SCHEMA)
class HexField(serializers.Field):
    """A hex of the map in the context's ``grid``, named by label or [column, row]; becomes its label."""

    default_error_messages = {"null": "give a hex: a label such as C4, or [column, row]"}

    def to_internal_value(self, value):
        grid = self.context["grid"]
        try:
            col, row = grid.parse_hex(value)
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None
        return grid.label(col, row)

    def to_representation(self, value):
        return value


class StrictSerializer(serializers.Serializer):
    """Unknown keys are refused by name: a misspelt option must not silently give another answer."""

    refuses_unknown_keys = True  # the schema says so (hexside.schema)

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = [key for key in data if key not in self.fields]
            if unknown:
                raise serializers.ValidationError({key: [f"unknown field; expected one of: {', '.join(self.fields)}"]
                                                   for key in unknown})
        return super().to_internal_value(data)
