"""Who may change a thing the API serves."""

from rest_framework import permissions


class IsOwnerOrReadOnly(permissions.BasePermission):
    """Everyone who may see it reads it; only its owner changes it (403 for the others)."""

    def has_object_permission(self, request, view, obj):
        return request.method in permissions.SAFE_METHODS or obj.owner_id == request.user.id
