"""The API's pagination: DRF's limit and offset, bounded so that no page costs more than MAX_LIMIT rows and no
number given reaches the database past what it holds (a huge offset is simply past the end: an empty page)."""

from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 1000
MAX_OFFSET = 2**62  # offset + limit stays within a 64-bit integer


class Pagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_OFFSET)
