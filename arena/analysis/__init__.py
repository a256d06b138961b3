"""Analysis of played matches: for every decision of one seat, the value of
the action taken and of the best legal one from what the seat knew (deals
drawn by the SDK's belief sampler, each played on by a reference policy),
labels and accuracy per part of the deal (docs/analysis.md).

    from arena.analysis.replay import Settings, analyse
"""
